import Foundation
import MovieContract
import MovieStore
import Movies
import TextFormatting

/// How `marquee watchlist` prints the list: a table, or JSON.
enum WatchlistOutput {
    /// The room a note keeps beside the title when a terminal is narrow.
    static let noteRoom = 12

    static func printTable(_ view: WatchlistView, home: WatchlistHome, now: Date, columns: Int? = OutputColumns.ofStandardOutput) {
        var header = "Watchlist"
        switch home {
        case let .thisMachine(reason): header += " (kept on this machine: \(reason))"
        case .server where view.serverHasNone: header += " (kept on this machine: the server keeps no watchlist)"
        case .server:
            header += view.pulledAt.map { " (server's list from \(DurationText.age(now.timeIntervalSince($0))))" } ?? " (never synced)"
        }
        if view.pendingChanges > 0, case .server = home, !view.serverHasNone {
            header += ", \(NumberText.counted(view.pendingChanges, "change")) pending: 'marquee sync' sends them"
        }
        print(header)
        guard !view.lines.isEmpty else {
            print("  (empty: 'marquee watch add ID' adds a movie)")
            return
        }
        let idWidth = max(2, view.lines.map { String($0.movieID).count }.max() ?? 2)
        let titles = view.lines.map { TerminalText.safe($0.titleAndYear ?? "(title not fetched here)") }
        let titleWidth = OutputColumns.width(of: titles, header: "Title", beside: 2 + idWidth + 2 + 2 + noteRoom, columns: columns)
        print("  " + DisplayWidth.fit("ID", to: idWidth, alignRight: true) + "  " + DisplayWidth.fit("Title", to: titleWidth) + "  Note")
        for (line, title) in zip(view.lines, titles) {
            var text = "  " + DisplayWidth.fit(String(line.movieID), to: idWidth, alignRight: true) + "  "
                + DisplayWidth.fit(title, to: titleWidth) + "  " + TerminalText.safe(line.note)
            // A list kept on this machine has nowhere to send its changes: nothing of it waits.
            switch keptHere(view, home) ? nil : line.pending {
            case .adding?: text += (line.note.isEmpty ? "" : "  ") + "[pending]"
            case .removing?: text += (line.note.isEmpty ? "" : "  ") + "[removal pending]"
            case nil: break
            }
            print(text.trimmingTrailingSpaces)
        }
    }

    /// Whether the list is kept on this machine (the API keeps none, or its server has none).
    private static func keptHere(_ view: WatchlistView, _ home: WatchlistHome) -> Bool {
        if case .server = home, !view.serverHasNone { return false }
        return true
    }

    /// The list as one JSON document: pretty, or on one line (`compact`, as `--follow` starts).
    static func printJSON(_ view: WatchlistView, home: WatchlistHome, compact: Bool = false) throws {
        struct Entry: Encodable {
            let movieId: Int
            let title: String?
            let year: Int?
            let note: String
            let changedAt: String
            let pending: String?
        }
        struct Document: Encodable {
            let keptOn: String
            let pulledAt: String?
            let pendingChanges: Int
            let entries: [Entry]
        }
        let here = keptHere(view, home)
        let document = Document(
            keptOn: here ? "thisMachine" : "server",
            pulledAt: view.pulledAt.map { WatchlistClock.string(WatchlistClock.now($0)) },
            pendingChanges: here ? 0 : view.pendingChanges,
            entries: view.lines.map { line in
                Entry(
                    movieId: line.movieID, title: line.movie?.name ?? line.title, year: line.movie?.year ?? line.year, note: line.note,
                    changedAt: WatchlistClock.string(line.changedAt), pending: here ? nil : line.pending?.rawValue
                )
            }
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = compact ? [.sortedKeys, .withoutEscapingSlashes] : [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(document), as: UTF8.self))
    }
}

private extension Calendar {
    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}

private extension String {
    var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
