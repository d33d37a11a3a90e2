import MovieContract

/// A watchlist as read, and the feed position it was read at.
public struct WatchlistRead: Sendable, Hashable {
    public var entries: [WatchlistEntry]
    public var feedPosition: Int64

    public init(entries: [WatchlistEntry], feedPosition: Int64) {
        self.entries = entries
        self.feedPosition = feedPosition
    }
}
