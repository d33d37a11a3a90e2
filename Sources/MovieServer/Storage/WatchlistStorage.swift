import Foundation
import Movies
import NIOConcurrencyHelpers

/// Each owner's watchlist on the server, written through ``WatchlistPlan``.
public protocol WatchlistStorage: Sendable {
    /// Every entry of `owner`'s watchlist, its tombstones (`removed`) included, the newest change
    /// first: a removal's time is what a device needs to tell a later change from an earlier one.
    func watchlistEntries(owner: String) async throws(StorageError) -> [WatchlistEntry]

    /// ``watchlistEntries(owner:)`` with the feed log's last sequence, read at one moment: the
    /// list holds every change of the events up to it, and none of those after.
    func watchlistRead(owner: String) async throws(StorageError) -> WatchlistRead

    /// Applies `write` as ``WatchlistPlan`` decides, in one transaction (its answer kept under its
    /// key with it), and returns the answer: of concurrent writes with the same key or change
    /// ids, on any instance, each change is applied once.
    func applyWatchlist(_ write: WatchlistWrite, now: Date) async throws(StorageError) -> WatchlistAnswer
}

/// A watchlist as read, and the feed position it was read at.
public struct WatchlistRead: Sendable, Hashable {
    public var entries: [WatchlistEntry]
    public var feedPosition: Int64

    public init(entries: [WatchlistEntry], feedPosition: Int64) {
        self.entries = entries
        self.feedPosition = feedPosition
    }
}

/// The server's log of the changes a watchlist received, each once, in the order they were
/// applied: what the tests read to count the changes that arrived.
package protocol WatchlistJournaling: Sendable {
    func watchlistJournal(owner: String) async throws(StorageError) -> [WatchlistJournalEntry]
}

/// One line of a watchlist's log: a change, and what became of it.
package struct WatchlistJournalEntry: Sendable, Hashable {
    package var changeID: String
    package var movieID: Int
    package var outcome: WatchlistChangeOutcome

    package init(changeID: String, movieID: Int, outcome: WatchlistChangeOutcome) {
        self.changeID = changeID
        self.movieID = movieID
        self.outcome = outcome
    }
}

/// How long a watchlist request's answer is kept under its `Idempotency-Key`: a retry within this
/// time gets the first answer (the change ids guard against a repeat after it).
public enum WatchlistRetention {
    public static let keys: TimeInterval = 25 * 3600
    /// How often a write also removes the answers past their time.
    package static let purgeInterval: TimeInterval = 600
}

/// When a storage last removed old watchlist answers: a write does so at most once per
/// ``WatchlistRetention/purgeInterval``, not on every request.
package final class WatchlistPurgeSchedule: Sendable {
    private let last = NIOLockedValueBox<Date?>(nil)

    package init() {}

    /// Whether a write at `now` should purge; the first to ask after the interval is told yes.
    package func isDue(at now: Date) -> Bool {
        last.withLockedValue { last in
            if let previous = last, now.timeIntervalSince(previous) < WatchlistRetention.purgeInterval { return false }
            last = now
            return true
        }
    }
}
