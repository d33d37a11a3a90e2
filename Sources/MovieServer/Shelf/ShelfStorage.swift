import Foundation

/// Each owner's shelf on the server beyond the watchlist (ratings, and every `ShelfKind` after
/// it), written through ``ShelfPlan``: one set of tables for every kind on each backend.
public protocol ShelfStorage: Sendable {
    /// Up to `limit` of `owner`'s records of `kind` whose keys come after `after` (nil: from the
    /// first), tombstones included, by key, with the feed log's last sequence, read at one moment;
    /// `more` when records follow.
    func shelfPage(owner: String, kind: String, after: String?, limit: Int) async throws(StorageError) -> ShelfRead

    /// Applies `write` as ``ShelfPlan`` decides, in one transaction with its answer kept under its
    /// key: of concurrent writes with the same key or change ids, on any instance, each change is
    /// applied once. A write whose account was removed is refused whole
    /// (``WatchlistAnswer/accountRemoved``).
    func applyShelf(_ write: ShelfWrite, now: Date) async throws(StorageError) -> WatchlistAnswer
}

extension ShelfStorage {
    /// Every one of `owner`'s records of `kind`, page by page, by key.
    public func shelfRead(owner: String, kind: String) async throws(StorageError) -> ShelfRead {
        var read = ShelfRead(entries: [], feedPosition: 0)
        var after: String?
        repeat {
            let page = try await shelfPage(owner: owner, kind: kind, after: after, limit: 5_000)
            read.entries += page.entries
            read.feedPosition = max(read.feedPosition, page.feedPosition)
            after = page.more ? page.entries.last?.key : nil
        } while after != nil
        return read
    }
}

/// A page of a kind of an owner's shelf as read at one moment.
public struct ShelfRead: Sendable, Hashable {
    public var entries: [ShelfEntry]
    /// The feed log's last sequence when the records were read.
    public var feedPosition: Int64
    /// Whether records follow the last of these.
    public var more: Bool

    public init(entries: [ShelfEntry], feedPosition: Int64, more: Bool = false) {
        self.entries = entries
        self.feedPosition = feedPosition
        self.more = more
    }
}
