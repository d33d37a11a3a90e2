import Foundation

/// Each owner's shelf on the server beyond the watchlist (ratings, and every ``ShelfKind`` after
/// it), written through ``ShelfPlan``: one set of tables for every kind on each backend.
public protocol ShelfStorage: Sendable {
    /// Every entry of `owner`'s records of `kind`, tombstones included, the newest change first,
    /// with the feed log's last sequence, read at one moment.
    func shelfRead(owner: String, kind: String) async throws(StorageError) -> ShelfRead

    /// Applies `write` as ``ShelfPlan`` decides, in one transaction with its answer kept under its
    /// key: of concurrent writes with the same key or change ids, on any instance, each change is
    /// applied once. A write whose account was removed is refused whole
    /// (``WatchlistAnswer/accountRemoved``).
    func applyShelf(_ write: ShelfWrite, now: Date) async throws(StorageError) -> WatchlistAnswer
}

/// A kind of an owner's shelf as read at one moment.
public struct ShelfRead: Sendable, Hashable {
    public var entries: [ShelfEntry]
    /// The feed log's last sequence when the records were read.
    public var feedPosition: Int64

    public init(entries: [ShelfEntry], feedPosition: Int64) {
        self.entries = entries
        self.feedPosition = feedPosition
    }
}
