import Foundation
import MovieContract
import MovieStore
import TextFormatting

/// How `marquee ratings` prints the ratings: a table, or JSON.
enum RatingsOutput {
    struct Row: Encodable {
        let movieId: Int
        let title: String?
        let year: Int?
        let score: Int
        let ratedAt: String
        let pending: Bool
        fileprivate let changedAt: Int64

        enum CodingKeys: String, CodingKey {
            case movieId, title, year, score, ratedAt, pending
        }
    }

    /// The view's lines with their movies' titles (the server's, else this machine's), in `order`.
    static func rows(_ view: ShelfView<Ratings>, sortedBy order: RatingsCommand.Sort, in watchlist: AppWatchlist) async -> [Row] {
        var rows: [Row] = []
        for line in view.lines {
            guard let movieID = Ratings.movieID(line.key) else { continue }
            var title = line.title, year = line.year
            if title == nil, let movie = (try? await watchlist.store.movie(id: movieID, api: WatchlistScope.api(of: watchlist.api))).flatMap({ $0 })?.value {
                title = movie.name
                year = movie.year
            }
            rows.append(Row(
                movieId: movieID, title: title, year: year, score: line.value.score, ratedAt: WatchlistClock.string(line.changedAt),
                pending: line.isPending, changedAt: line.changedAt
            ))
        }
        switch order {
        case .date: rows.sort { ($0.changedAt, $1.movieId) > ($1.changedAt, $0.movieId) }
        case .score: rows.sort { ($0.score, $0.changedAt, $1.movieId) > ($1.score, $1.changedAt, $0.movieId) }
        case .title:
            rows.sort { left, right in
                let (a, b) = (SearchText.titleKey(left.title ?? ""), SearchText.titleKey(right.title ?? ""))
                return a != b ? a < b : left.movieId < right.movieId
            }
        }
        return rows
    }

    static func printTable(_ rows: [Row], pending: Int, home: WatchlistHome, columns: Int? = OutputColumns.ofStandardOutput) {
        var header = "Ratings"
        if case let .thisMachine(reason) = home { header += " (kept on this machine: \(reason))" }
        if pending > 0, case .server = home { header += ", \(NumberText.counted(pending, "change")) pending: 'marquee sync' sends them" }
        print(header)
        guard !rows.isEmpty else {
            print("  (none yet: 'marquee rate ID SCORE' rates a movie)")
            return
        }
        let idWidth = max(2, rows.map { String($0.movieId).count }.max() ?? 2)
        let titles = rows.map { row in TerminalText.safe(row.title.map { "\($0) (\(row.year.map(String.init) ?? "?"))" } ?? "(title not fetched here)") }
        let scoreWidth = 13
        let titleWidth = OutputColumns.width(of: titles, header: "Title", beside: 2 + scoreWidth + 2 + idWidth + 2 + 10 + 2, columns: columns)
        print("  " + DisplayWidth.fit("Score", to: scoreWidth) + "  " + DisplayWidth.fit("ID", to: idWidth, alignRight: true) + "  "
              + DisplayWidth.fit("Title", to: titleWidth) + "  Rated")
        for (row, title) in zip(rows, titles) {
            let rated = String(row.ratedAt.prefix(10)) + (row.pending && home == .server ? "  [pending]" : "")
            print("  " + DisplayWidth.fit(ShelfText.score(row.score), to: scoreWidth) + "  " + DisplayWidth.fit(String(row.movieId), to: idWidth, alignRight: true)
                  + "  " + DisplayWidth.fit(title, to: titleWidth) + "  " + rated)
        }
    }

    static func printJSON(_ rows: [Row], pending: Int) throws {
        struct Document: Encodable {
            let pendingChanges: Int
            let ratings: [Row]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(Document(pendingChanges: pending, ratings: rows)), as: UTF8.self))
    }
}
