import MovieStore

/// The watchlist as the browser uses it: the app supplies one over its store and its sync.
public protocol BrowserWatchlist: Sendable {
    /// The list as this machine sees it now.
    func view() async throws -> WatchlistView

    /// Writes the addition or removal of `movieID` to the outbox (shown at once).
    func change(movieID: Int, add: Bool) async throws

    /// Sends the pending changes and fetches the server's list. `nil` when that was done; else
    /// what to tell the user (the network failed, the list is kept on this machine).
    func sync() async -> String?
}
