import MovieContract
/// Where a watchlist is kept: the movie API's `/api/watchlist`. The store's `WatchlistSync`
/// (in MovieStore) pushes the outbox to it and pulls its state.
public protocol WatchlistService<Failure>: Sendable {
    associatedtype Failure: Error

    /// The owner's watchlist, newest change first, with its removals when the server sends them; or
    /// word that the copy tagged `entityTag` is current.
    func watchlist(ifNoneMatch entityTag: String?) async throws(Failure) -> Revalidation<WatchlistSnapshot>

    /// Sends `changes` in one request under the idempotency key `key`, and returns what became of
    /// each, in order. The same key with the same changes is answered the same, applying nothing twice.
    func apply(_ changes: [WatchlistChangeRecord], key: String) async throws(Failure) -> [WatchlistChangeResult]

    /// Whether `failure` says the server has no watchlist at all (the original static site).
    func meansNoWatchlist(_ failure: Failure) -> Bool
}
