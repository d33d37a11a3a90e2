import Foundation
import MovieServer
import PostgresNIO

extension PostgresStorage: EventStorage {
    public func events(after cursor: Int64, for audience: EventAudience, limit: Int) async throws(StorageError) -> [FeedEvent] {
        try await run { client in try await PostgresFeed.events(after: cursor, for: audience, limit: limit, on: client, logger: self.logger) }
    }

    public func eventLogBounds() async throws(StorageError) -> EventLogBounds {
        try await run { client in try await PostgresFeed.bounds(on: client, logger: self.logger) }
    }

    public func pruneEvents(writtenBefore date: Date) async throws(StorageError) {
        try await run { client in try await PostgresFeed.prune(writtenBefore: date, on: client, logger: self.logger) }
    }
}
