import MovieAPI
import MovieStore
import Movies
import TextFormatting

/// What became of the outbox after a `watch` change: sent, refused in part, or kept for later.
enum WatchlistSending {
    /// `deletedLists`: how many changes were refused because their list was deleted elsewhere.
    case sent(superseded: Bool, unknownMovies: [Int], deletedLists: Int = 0)
    /// Another process is sending the changes.
    case busy
    /// The server could not take them now (its words).
    case notSent(String)
    /// Kept on this machine: the API keeps no watchlist (why).
    case kept(String)
    /// `--offline`: sent by a later command.
    case pending

    /// Sends the outbox of `watchlist` and fetches the server's list.
    static func send(_ watchlist: AppWatchlist, offline: Bool) async -> WatchlistSending {
        if case let .thisMachine(reason) = watchlist.home { return .kept(reason) }
        guard let sync = watchlist.sync else { return offline ? .pending : .notSent("the server cannot be used this run") }
        do {
            let report = try await sync.push(waiting: true)
            try? await sync.pull()
            guard case let .sent(counts, unknown) = report else { return .busy }
            return .sent(superseded: (counts[.superseded] ?? 0) > 0, unknownMovies: unknown)
        } catch {
            if case .noWatchlist = error { return .kept("the server keeps no watchlist") }
            return .notSent(ErrorReporter.describe(error))
        }
    }

    /// Whether the server said it has no movie `movieID`.
    func refused(_ movieID: Int) -> Bool {
        if case let .sent(_, unknown, _) = self { unknown.contains(movieID) } else { false }
    }

    /// Whether the server took the changes (so it checked the movie).
    var reachedServer: Bool {
        if case .sent = self { true } else { false }
    }

    /// Whether the change is still to reach the server (so the server is still to check it).
    var isOnItsWay: Bool {
        switch self {
        case .busy, .notSent, .pending: true
        case .sent, .kept: false
        }
    }

    /// The end of the command's sentence; a signed-out person is an error.
    func sentence() throws -> String {
        switch self {
        case let .sent(superseded, unknown, deletedLists):
            var dropped = unknown.isEmpty ? "" : " (earlier changes for movie \(unknown.map(String.init).joined(separator: ", ")) were dropped: the server has no such movie)"
            if deletedLists > 0 { dropped += " (\(NumberText.counted(deletedLists, "change")) dropped: the list was deleted on another device)" }
            return (superseded ? "sent, but a newer change made on another device stands" : "sent to the server") + dropped + "."
        case .busy: return "pending: another process is sending changes."
        case let .kept(reason): return "kept on this machine: \(reason)."
        case .pending: return "pending: it is sent by the next command that uses the network, or 'marquee sync'."
        case let .notSent(words):
            if let signedOut = SignedOut.sentence(in: words) { throw CLIError.failed("\(signedOut) (the change is kept here and sent then)") }
            return "not sent yet (\(words)): kept on this machine and sent by the next command that uses the network."
        }
    }
}
