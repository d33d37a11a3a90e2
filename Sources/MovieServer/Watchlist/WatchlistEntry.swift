/// What an owner's watchlist holds for one movie: the movie with its note, or a tombstone once
/// it was removed, kept so that an older add made offline elsewhere cannot bring it back. Which
/// of two changes wins is ``WatchlistVersion``'s order.
public struct WatchlistEntry: Sendable, Hashable {
    public var movieID: Int
    public var note: String
    public var version: WatchlistVersion
    public var removed: Bool

    public init(movieID: Int, note: String, version: WatchlistVersion, removed: Bool) {
        self.movieID = movieID
        self.note = note
        self.version = version
        self.removed = removed
    }
}

/// When a change was made on its client, and by which device: the order of last writer wins.
/// Later times win; at the same millisecond the greater device id wins, so every server and
/// every client that compares two changes picks the same one.
public struct WatchlistVersion: Sendable, Hashable, Comparable {
    /// Milliseconds since 1970, UTC, on the client's clock when the change was made.
    public var changedAt: Int64
    /// The device that made the change: each client store's own random id.
    public var device: String

    public init(changedAt: Int64, device: String) {
        self.changedAt = changedAt
        self.device = device
    }

    public static func < (lhs: WatchlistVersion, rhs: WatchlistVersion) -> Bool {
        guard lhs.changedAt == rhs.changedAt else { return lhs.changedAt < rhs.changedAt }
        return lhs.device.utf8.lexicographicallyPrecedes(rhs.device.utf8)
    }
}
