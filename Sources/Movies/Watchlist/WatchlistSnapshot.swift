/// A watchlist as its server sent it: the movies on it and, when the server says, when each movie
/// that left it was removed, so that a device can tell an older change of a movie from a newer
/// one (a replayed event, or a change made after seeing the removal) whatever its own clock says.
public struct WatchlistSnapshot: Sendable, Hashable {
    /// The movies on the list, newest change first.
    public var items: [WatchlistItem]
    /// When each removed movie left the list, in milliseconds since 1970; `nil` from a server that
    /// does not send its removals.
    public var removals: [Int: Int64]?
    /// The live feed's position the list was read at: it holds every change of the feed's events
    /// up to it. `nil` from a server that does not say.
    public var feedPosition: Int64?

    public init(items: [WatchlistItem], removals: [Int: Int64]? = nil, feedPosition: Int64? = nil) {
        self.items = items
        self.removals = removals
        self.feedPosition = feedPosition
    }
}
