import MovieContract

/// What an owner's shelf holds under one key of one kind: the value in force, or a tombstone once
/// it was removed, kept so that an older change made offline elsewhere cannot bring it back.
public struct ShelfEntry: Sendable, Hashable {
    public var key: String
    /// The kind's compact JSON; empty for a tombstone.
    public var value: String
    public var version: WatchlistVersion
    public var removed: Bool

    public init(key: String, value: String, version: WatchlistVersion, removed: Bool) {
        self.key = key
        self.value = value
        self.version = version
        self.removed = removed
    }

    /// `entries`, the newest change first, then by key.
    static func newestFirst(_ entries: [ShelfEntry]) -> [ShelfEntry] {
        entries.sorted { ($0.version.changedAt, $1.key) > ($1.version.changedAt, $0.key) }
    }
}

extension ShelfEntry: SyncedRecord {}
