import Foundation
import MovieContract
import MovieStore
import TextFormatting

/// How `marquee diary` prints the diary: a table, or JSON; newest viewing first.
enum DiaryOutput {
    struct Row: Encodable {
        let entry: String
        let movieId: Int
        let title: String?
        let year: Int?
        let watchedOn: String
        let rewatch: Bool
        let note: String
        let pending: Bool
        fileprivate let changedAt: Int64

        enum CodingKeys: String, CodingKey {
            case entry, movieId, title, year, watchedOn, rewatch, note, pending
        }
    }

    static func rows(_ view: ShelfView<Diary>, year: Int?, in watchlist: AppWatchlist) async -> [Row] {
        var rows: [Row] = []
        for line in view.lines where year.map({ line.value.watchedOn.hasPrefix(String($0) + "-") }) ?? true {
            var title = line.title, movieYear = line.year
            if title == nil, let movie = (try? await watchlist.store.movie(id: line.value.movieId, api: WatchlistScope.api(of: watchlist.api))).flatMap({ $0 })?.value {
                title = movie.name
                movieYear = movie.year
            }
            rows.append(Row(
                entry: line.key, movieId: line.value.movieId, title: title, year: movieYear, watchedOn: line.value.watchedOn,
                rewatch: line.value.rewatch, note: line.value.note, pending: line.isPending, changedAt: line.changedAt
            ))
        }
        return rows.sorted { ($0.watchedOn, $0.changedAt, $1.entry) > ($1.watchedOn, $1.changedAt, $0.entry) }
    }

    static func printTable(_ rows: [Row], pending: Int, home: WatchlistHome, year: Int?, columns: Int? = OutputColumns.ofStandardOutput) {
        var header = "Diary" + (year.map { " of \($0)" } ?? "")
        if case let .thisMachine(reason) = home { header += " (kept on this machine: \(reason))" }
        if pending > 0, case .server = home { header += ", \(NumberText.counted(pending, "change")) pending: 'marquee sync' sends them" }
        print(header)
        guard !rows.isEmpty else {
            print("  (nothing logged\(year == nil ? "" : " that year"): 'marquee watched ID' logs a viewing)")
            return
        }
        let titles = rows.map { row in TerminalText.safe(row.title.map { "\($0) (\(row.year.map(String.init) ?? "?"))" } ?? "movie \(row.movieId)") }
        let titleWidth = OutputColumns.width(of: titles, header: "Title", beside: 2 + 10 + 2 + 8 + 2 + 12, columns: columns)
        // One write for the table: a diary of thousands of rows is printed as one text.
        var table = "  " + DisplayWidth.fit("Watched", to: 10) + "  " + DisplayWidth.fit("Entry", to: 8) + "  " + DisplayWidth.fit("Title", to: titleWidth) + "  Note\n"
        table.reserveCapacity(rows.count * (titleWidth + 40))
        for (row, title) in zip(rows, titles) {
            var text = "  " + row.watchedOn + "  " + String(row.entry.prefix(8)) + "  " + DisplayWidth.fit(title, to: titleWidth) + "  "
            var notes: [String] = []
            if row.rewatch { notes.append("(rewatch)") }
            if !row.note.isEmpty { notes.append(TerminalText.safe(row.note)) }
            if row.pending, home == .server { notes.append("[pending]") }
            text += notes.joined(separator: " ")
            while text.last == " " { text.removeLast() }
            table += text + "\n"
        }
        print(table, terminator: "")
    }

    static func printJSON(_ rows: [Row], pending: Int) throws {
        struct Document: Encodable {
            let pendingChanges: Int
            let entries: [Row]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(Document(pendingChanges: pending, entries: rows)), as: UTF8.self))
    }
}
