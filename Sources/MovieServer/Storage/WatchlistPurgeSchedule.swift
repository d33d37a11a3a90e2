import Foundation
import NIOConcurrencyHelpers

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
