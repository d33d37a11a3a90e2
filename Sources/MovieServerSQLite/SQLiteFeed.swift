import Foundation
import GRDB
import MovieServer

/// The feed log's table in SQLite: events written in the caller's transaction, and read back.
enum SQLiteFeed {
    static func append(_ events: [NewFeedEvent], now: Date, in db: Database) throws {
        let insert = try db.cachedStatement(sql: "INSERT INTO feed_event (owner, kind, data, created_at) VALUES (?, ?, ?, ?)")
        for event in events {
            try insert.execute(arguments: [event.owner, event.kind.rawValue, event.data, now.timeIntervalSince1970])
        }
    }

    static func events(after cursor: Int64, for audience: EventAudience, limit: Int, in db: Database) throws -> [FeedEvent] {
        let rows: [Row]
        switch audience {
        case .everyone:
            rows = try Row.fetchAll(db, sql: "SELECT sequence, owner, kind, data FROM feed_event WHERE sequence > ? ORDER BY sequence LIMIT ?", arguments: [cursor, limit])
        case let .reader(owner):
            rows = try Row.fetchAll(db, sql: """
                SELECT sequence, owner, kind, data FROM (
                    SELECT sequence, owner, kind, data FROM feed_event WHERE owner IS NULL AND sequence > ?
                    UNION ALL SELECT sequence, owner, kind, data FROM feed_event WHERE owner = ? AND kind <> 'sign-out' AND sequence > ?)
                ORDER BY sequence LIMIT ?
                """, arguments: [cursor, owner, cursor, limit])
        }
        return rows.compactMap { row in
            guard let kind = FeedEvent.Kind(rawValue: row["kind"]) else { return nil }
            return FeedEvent(sequence: row["sequence"], owner: row["owner"], kind: kind, data: row["data"])
        }
    }

    static func bounds(in db: Database) throws -> EventLogBounds {
        // AUTOINCREMENT's own counter: the last sequence ever given, even once its row is pruned.
        let latest = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'feed_event'") ?? 0
        let pruned = try Int64.fetchOne(db, sql: "SELECT pruned_through FROM feed_state WHERE id = 1") ?? 0
        return EventLogBounds(latest: latest, prunedThrough: pruned)
    }

    static func prune(writtenBefore date: Date, in db: Database) throws {
        guard let last = try Int64.fetchOne(db, sql: "SELECT max(sequence) FROM feed_event WHERE created_at < ?", arguments: [date.timeIntervalSince1970]) else { return }
        try db.execute(sql: "DELETE FROM feed_event WHERE sequence <= ?", arguments: [last])
        try db.execute(sql: "UPDATE feed_state SET pruned_through = max(pruned_through, ?) WHERE id = 1", arguments: [last])
    }
}
