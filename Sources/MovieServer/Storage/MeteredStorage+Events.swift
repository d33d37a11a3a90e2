import Foundation

extension MeteredStorage {
    func events(after cursor: Int64, for audience: EventAudience, limit: Int) async throws(StorageError) -> [FeedEvent] {
        try await observe("feed_events") { () async throws(StorageError) in try await base.events(after: cursor, for: audience, limit: limit) }
    }

    func eventLogBounds() async throws(StorageError) -> EventLogBounds {
        try await observe("feed_bounds") { () async throws(StorageError) in try await base.eventLogBounds() }
    }

    func pruneEvents(writtenBefore date: Date) async throws(StorageError) {
        try await observe("feed_prune") { () async throws(StorageError) in try await base.pruneEvents(writtenBefore: date) }
    }
}
