import Foundation
import Logging
import MovieAPI
import MovieContract
import MovieStore
import Movies
import NIOConcurrencyHelpers
import TextFormatting

/// `marquee watchlist --follow`: after the list, one line per change the server's live feed
/// brings (another device's, or this one's), until the process is interrupted. The feed's state
/// goes to standard error; a feed that stops for good ends the command with its reason.
enum WatchlistFollow {
    /// Follows the list after `shown` was printed: in text, a refetch that finds the list as it was
    /// last printed or announced says nothing. A feed that ends (signed out, or stopped for good) is
    /// said once, by the failure that ends the command.
    /// `serverWasDown`: the person was told, before the list, that the server cannot be reached.
    static func run(_ watchlist: AppWatchlist, json: Bool, shown: WatchlistView, serverWasDown: Bool = false) async throws {
        guard watchlist.home == .server, let sync = watchlist.sync, let feed = watchlist.feed else {
            throw CLIError.failed("--follow needs a server that keeps the watchlist, and a person signed in to it ('marquee login')")
        }
        let live = WatchlistLive(store: watchlist.store, api: watchlist.api, sync: sync, feed: feed)
        let stopReason = NIOLockedValueBox<String?>(nil)
        let announced = NIOLockedValueBox(ListContents(shown))
        let statusLines = NIOLockedValueBox(FollowStatusLines(waiting: serverWasDown))
        await live.run { report in
            switch report {
            case let .status(status):
                if case let .off(reason) = status {
                    stopReason.withLockedValue { $0 = "the live feed stopped: \(reason)" }
                } else if case let .signedOut(reason) = status {
                    stopReason.withLockedValue { $0 = reason }
                } else if let text = statusLines.withLockedValue({ $0.line(for: status) }) {
                    FileHandle.standardError.write(Data("marquee: \(TerminalText.safe(text))\n".utf8))
                } else {
                    Logger(label: "marquee").info("the live feed, not shown while the server cannot be reached: \(status.description)")
                }
            case let .changed(change):
                let title = await WatchlistFollowTitle.of(change.movieID, in: watchlist)
                line(json ? changeJSON(change, title: title) : changeText(change, title: title))
                if let view = try? await watchlist.store.watchlist(api: watchlist.api) { announced.withLockedValue { $0 = ListContents(view) } }
            case .refetched:
                guard let view = try? await watchlist.store.watchlist(api: watchlist.api) else { return }
                let contents = ListContents(view)
                // A program reading --json is told of every refetch (the feed's reset); a person,
                // only of one that changed what they see.
                guard json || announced.withLockedValue({ $0 }) != contents else { return }
                announced.withLockedValue { $0 = contents }
                let count = view.lines.count
                line(json ? #"{"event":"refetched","entries":\#(count)}"# : "the list was fetched again: \(count) movie\(count == 1 ? "" : "s")")
            case let .catalogChanged(version):
                line(json ? #"{"event":"catalog","version":\#(version)}"# : "the catalogue changed (version \(version))")
            case .shelfChanged:
                break
            }
        }
        if let reason = stopReason.withLockedValue({ $0 }) { throw CLIError.failed(reason) }
    }

    /// "added Deadpool (2016), id 6, note "Friday"", "note changed: …, now "Saturday"", "removed …".
    static func changeText(_ change: WatchlistChange, title: WatchlistFollowTitle) -> String {
        let movie = TerminalText.safe(title.text) + ", id \(change.movieID)"
        let note = TerminalText.safe(change.note)
        switch change.kind {
        case .added: return "added \(movie)" + (change.note.isEmpty ? "" : ", note \"\(note)\"")
        case .removed: return "removed \(movie)"
        case .noteChanged: return "note changed: \(movie), now " + (change.note.isEmpty ? "no note" : "\"\(note)\"")
        }
    }

    static func changeJSON(_ change: WatchlistChange, title: WatchlistFollowTitle) -> String {
        var object: [String: Any] = [
            "event": "changed", "change": change.kind.rawValue, "movieId": change.movieID, "note": change.note,
            "changedAt": WatchlistClock.string(change.changedAt), "removed": change.kind == .removed,
        ]
        if let name = title.name { object["title"] = name }
        if let year = title.year { object["year"] = year }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// What a person sees of a list: its movies and their notes, in order.
    struct ListContents: Equatable, Sendable {
        let entries: [[String]]

        init(_ view: WatchlistView) {
            entries = view.lines.map { [String($0.movieID), $0.note] }
        }
    }

    /// Prints and flushes at once: a reader of a pipe sees each change as it comes.
    private static func line(_ text: String) {
        print(text)
        fflush(nil)
    }
}
