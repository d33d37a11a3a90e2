import MovieContract

/// Where a person's shelf beyond the watchlist is kept: the movie API's `/api/{kind}` for each
/// ``ShelfKind``. The store's `ShelfSync` (in MovieStore) pushes the outbox to it and pulls each
/// kind's records.
public protocol ShelfService<Failure>: Sendable {
    associatedtype Failure: Error

    /// Every record of `kind`, removals included, newest change first.
    func records<Kind: ShelfKind>(_ kind: Kind.Type) async throws(Failure) -> ShelfSnapshot

    /// Sends `changes` of `kind` in one request under the idempotency key `key`, and returns what
    /// became of each, in order.
    func apply<Kind: ShelfKind>(_ changes: [ShelfChangeRecord], of kind: Kind.Type, key: String) async throws(Failure) -> [WatchlistChangeResult]
}
