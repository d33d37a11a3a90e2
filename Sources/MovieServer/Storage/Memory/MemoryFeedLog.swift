import Foundation
import NIOConcurrencyHelpers

/// The feed log of ``MemoryStorage``: the newest events, some ``capacity``; older ones are
/// pruned as if their time had passed, so a process's memory stays bounded however long it runs.
final class MemoryFeedLog: Sendable {
    static let capacity = 100_000

    private struct Log {
        var events: [(event: FeedEvent, at: Date)] = []
        var latest: Int64 = 0
        var prunedThrough: Int64 = 0
    }

    private let log = NIOLockedValueBox(Log())

    func append(_ events: [NewFeedEvent], now: Date) {
        guard !events.isEmpty else { return }
        log.withLockedValue { log in
            for event in events {
                log.latest += 1
                log.events.append((FeedEvent(sequence: log.latest, owner: event.owner, kind: event.kind, data: event.data), now))
            }
            // Cut in tenths, so that a write does not move the whole log each time.
            let excess = log.events.count - Self.capacity
            if excess > Self.capacity / 10 {
                log.prunedThrough = log.events[excess - 1].event.sequence
                log.events.removeFirst(excess)
            }
        }
    }

    func events(after cursor: Int64, for audience: EventAudience, limit: Int) -> [FeedEvent] {
        log.withLockedValue { log in
            let first = log.events.partitioningIndex { $0.event.sequence > cursor }
            var found: [FeedEvent] = []
            for (event, _) in log.events[first...] {
                if case let .reader(owner) = audience, !event.isVisible(to: owner) { continue }
                found.append(event)
                if found.count == limit { break }
            }
            return found
        }
    }

    /// Forgets every event of `owner` (an account removed).
    func remove(owner: String) {
        log.withLockedValue { log in log.events.removeAll { $0.event.owner == owner } }
    }

    var bounds: EventLogBounds {
        log.withLockedValue { EventLogBounds(latest: $0.latest, prunedThrough: $0.prunedThrough) }
    }

    func prune(writtenBefore date: Date) {
        log.withLockedValue { log in
            let end = log.events.partitioningIndex { $0.at >= date }
            guard end > 0 else { return }
            log.prunedThrough = log.events[end - 1].event.sequence
            log.events.removeFirst(end)
        }
    }
}

extension MemoryStorage: EventStorage {
    public func events(after cursor: Int64, for audience: EventAudience, limit: Int) -> [FeedEvent] {
        feed.events(after: cursor, for: audience, limit: limit)
    }

    public func eventLogBounds() -> EventLogBounds { feed.bounds }

    public func pruneEvents(writtenBefore date: Date) { feed.prune(writtenBefore: date) }
}

extension RandomAccessCollection {
    /// The first index whose element satisfies `belongsToSecondPart`, for a collection already
    /// partitioned by it (a binary search).
    func partitioningIndex(where belongsToSecondPart: (Element) -> Bool) -> Index {
        var low = startIndex, count = self.count
        while count > 0 {
            let half = count / 2, middle = index(low, offsetBy: half)
            if belongsToSecondPart(self[middle]) { count = half } else { low = index(after: middle); count -= half + 1 }
        }
        return low
    }
}
