import Foundation
import GRDB
import MovieServer

extension SQLiteStorage: EventStorage {
    public func events(after cursor: Int64, for audience: EventAudience, limit: Int) async throws(StorageError) -> [FeedEvent] {
        try await read { db in try SQLiteFeed.events(after: cursor, for: audience, limit: limit, in: db) }
    }

    public func eventLogBounds() async throws(StorageError) -> EventLogBounds {
        try await read { db in try SQLiteFeed.bounds(in: db) }
    }

    public func pruneEvents(writtenBefore date: Date) async throws(StorageError) {
        try await write { db in try SQLiteFeed.prune(writtenBefore: date, in: db) }
    }
}
