import Foundation
import MovieAPI
import MovieContract
import MovieStore
import Movies
import TextFormatting

/// One change made by `watch add` or `watch remove`, decided on this machine's view of the list
/// (the server's fetched first when it answers), written to the outbox, then sent when the server
/// can be reached. A movie the server does not have is an error, and nothing of it stays pending;
/// removing a movie that is not on the list changes nothing and says so.
enum WatchChange {
    static func add(movieID: Int, note: String?, json: Bool, _ options: ClientOptions) async throws {
        try await CompositionRoot.withWatchlist(options) { watchlist in
            let before = try await WatchlistLook.at(movieID, in: watchlist)
            let change = try await record(movieID, .add, note: note, in: watchlist.store, api: watchlist.api)
            let done =
                if note == "" { before.line == nil ? "Added \(before.name) to the watchlist" : "Cleared the note of \(before.name)" }
                else if note != nil { "Noted \(before.name) on the watchlist" }
                else if before.line == nil { "Added \(before.name) to the watchlist" }
                else { "\(before.name.capitalizingFirst) is on the watchlist already, its note kept" }
            let delivery = await WatchlistSending.send(watchlist, offline: options.offline)
            if delivery.refused(movieID) {
                throw CLIError.failed("the server has no movie \(movieID): it was not added to the watchlist, and nothing is pending")
            }
            let unchecked = !before.stored && delivery.isOnItsWay
                ? " Movie \(movieID) is not stored here, so it could not be checked: if the server has no such movie, the change is dropped when sent."
                : ""
            let sentence = "\(done); \(try delivery.sentence())\(unchecked)"
            print(json ? WatchChangeJSON.line(change, delivery: delivery, message: sentence) : sentence)
        }
    }

    static func remove(movieID: Int, json: Bool, _ options: ClientOptions) async throws {
        try await CompositionRoot.withWatchlist(options) { watchlist in
            let before = try await WatchlistLook.at(movieID, in: watchlist)
            guard before.line != nil else {
                let seen = before.fresh ? "" : " as this machine last saw it"
                let advice = before.fresh ? "" : " ('marquee sync' fetches the server's list)"
                let sentence = "\(before.name.capitalizingFirst) is not on the watchlist\(seen); nothing was changed\(advice)."
                print(json ? WatchChangeJSON.unchanged(movieID: movieID, message: sentence) : sentence)
                return
            }
            let change = try await record(movieID, .remove, note: nil, in: watchlist.store, api: watchlist.api)
            let delivery = await WatchlistSending.send(watchlist, offline: options.offline)
            if delivery.refused(movieID) { throw CLIError.failed("the server has no movie \(movieID); nothing is pending") }
            let sentence = "Removed \(before.name) from the watchlist; \(try delivery.sentence())"
            print(json ? WatchChangeJSON.line(change, delivery: delivery, message: sentence) : sentence)
        }
    }

    private static func record(
        _ movieID: Int, _ action: WatchlistChangeRecord.Action, note: String?, in store: MovieStore, api: String
    ) async throws -> WatchlistChangeRecord {
        do {
            return try await store.recordWatchlistChange(movieID: movieID, action: action, note: note, api: api)
        } catch {
            throw CLIError.failed(ErrorReporter.describe(error))
        }
    }
}

/// A movie as this machine's view of the list shows it, before a change.
struct WatchlistLook {
    /// Its line, when it is on the list (a pending removal is not).
    let line: WatchlistView.Line?
    /// Whether the view was just fetched from the server, or is the whole list (kept here).
    let fresh: Bool
    /// Whether the movie is stored here, so known to exist.
    let stored: Bool
    /// "Deadpool (6)", or "movie 6" when it is not stored.
    let name: String

    static func at(_ movieID: Int, in watchlist: AppWatchlist) async throws -> WatchlistLook {
        var fresh = watchlist.home != .server
        if let sync = watchlist.sync {
            do { try await sync.pull(); fresh = true } catch {}
        }
        let view: WatchlistView
        do { view = try await watchlist.store.watchlist(api: watchlist.api) } catch { throw CLIError.failed(ErrorReporter.describe(error)) }
        var movie = (try? await watchlist.store.movie(id: movieID, api: WatchlistScope.api(of: watchlist.api))).flatMap { $0 }?.value
        if movie == nil, fresh, watchlist.home == .server, let movies = watchlist.movies {
            // Asked (and stored) so that every device names the movie the same way.
            movie = try? await movies.movie(id: movieID, policy: .networkOnly) { _ in }.value
        }
        return WatchlistLook(
            line: view.lines.first { $0.movieID == movieID && $0.pending != .removing },
            fresh: fresh,
            stored: movie != nil,
            name: movie.map { "\(TerminalText.safe($0.name)) (\(movieID))" } ?? "movie \(movieID)"
        )
    }
}
