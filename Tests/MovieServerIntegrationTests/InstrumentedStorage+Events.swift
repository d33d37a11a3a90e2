import Foundation
import MovieServer

extension InstrumentedStorage {
    func events(after cursor: Int64, for audience: EventAudience, limit: Int) async throws(StorageError) -> [FeedEvent] {
        base.events(after: cursor, for: audience, limit: limit)
    }

    func eventLogBounds() async throws(StorageError) -> EventLogBounds { base.eventLogBounds() }

    func pruneEvents(writtenBefore date: Date) async throws(StorageError) { base.pruneEvents(writtenBefore: date) }

    func onFeedNotification(_ wake: @escaping @Sendable () -> Void) -> Bool { base.onFeedNotification(wake) }
}
