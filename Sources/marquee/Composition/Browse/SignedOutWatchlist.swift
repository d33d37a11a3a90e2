import MovieBrowser
import MovieStore

/// The browser's watchlist of a server API, offline, with nobody signed in: it shows what the
/// store keeps for the account chosen (if any), and changes nothing, for a change queued now
/// would be sent by a later sign-in, decided on a list that may not be the person's.
struct SignedOutWatchlist: BrowserWatchlist {
    let shown: AppWatchlist
    /// Why nothing can be changed, and what to run.
    let reason: String

    func view() async throws -> WatchlistView {
        try await shown.view()
    }

    func change(movieID: Int, add: Bool) async throws {
        throw CLIError.failed(reason)
    }

    func sync() async -> String? {
        reason
    }
}
