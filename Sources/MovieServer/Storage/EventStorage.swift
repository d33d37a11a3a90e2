import Foundation

/// The server's feed log: every watchlist change and catalogue version as a ``FeedEvent``, kept
/// for a while so that a client that lost its stream resumes from its cursor. The events are
/// written by the same transactions as the changes they tell of; this reads and prunes them.
public protocol EventStorage: Sendable {
    /// The events after `cursor`, oldest first, at most `limit`: all of them (`owner` is
    /// ``EventAudience/everyone``), or those one reader sees (its own and the catalogue's).
    func events(after cursor: Int64, for audience: EventAudience, limit: Int) async throws(StorageError) -> [FeedEvent]

    /// The last sequence written, and the last one pruned (no event at or before it is kept).
    func eventLogBounds() async throws(StorageError) -> EventLogBounds

    /// Forgets the events written before `date`.
    func pruneEvents(writtenBefore date: Date) async throws(StorageError)

    /// Calls `wake` each time another instance may have written events, from now on until the
    /// storage is closed (PostgreSQL's `LISTEN`); false when the storage is not told, and the
    /// feed reads the log every ``FeedSettings/pollInterval`` instead.
    func onFeedNotification(_ wake: @escaping @Sendable () -> Void) -> Bool
}

/// Whose events a read returns.
public enum EventAudience: Sendable, Hashable {
    /// Every event: what one instance reads to hand on to its subscribers.
    case everyone
    /// A reader's: the events of `owner` (nil: an application, which has no watchlist) and the catalogue's.
    case reader(owner: String?)
}

/// Where the feed log stands.
public struct EventLogBounds: Sendable, Hashable {
    /// The last sequence written (0 when none ever was).
    public var latest: Int64
    /// The last sequence pruned: a cursor before it may have missed events.
    public var prunedThrough: Int64

    public init(latest: Int64, prunedThrough: Int64) {
        self.latest = latest
        self.prunedThrough = prunedThrough
    }
}
