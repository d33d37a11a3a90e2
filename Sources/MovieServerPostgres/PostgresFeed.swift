import Foundation
import Logging
import MovieServer
import PostgresNIO

/// The feed log's table in PostgreSQL. Events are appended at the end of the transaction that
/// made the change, under one advisory lock held to its commit: sequences are then committed in
/// their order on every instance, so a reader that has seen sequence N will never later find a
/// smaller one appear (which `BIGSERIAL` alone allows). The `NOTIFY` is delivered at commit.
enum PostgresFeed {
    /// The channel every instance listens on; the payload is the last sequence written.
    static let channel = "marquee_feed"
    private static let appendLock: Int64 = 0x4D51_4645_4544

    static func append(_ events: [NewFeedEvent], now: Date, on connection: PostgresConnection, logger: Logger) async throws {
        guard !events.isEmpty else { return }
        try await connection.query("SELECT pg_advisory_xact_lock(\(appendLock))", logger: logger)
        let latest = try await connection.allRows("""
            INSERT INTO feed_event (owner, kind, data, created_at)
            SELECT NULLIF(owner, ''), kind, data, \(now) FROM unnest(\(events.map { $0.owner ?? "" })::text[], \(events.map(\.kind.rawValue))::text[], \(events.map(\.data))::text[])
                WITH ORDINALITY AS event (owner, kind, data, position)
            ORDER BY position
            RETURNING sequence
            """, logger: logger).map { try $0.decode(Int64.self) }.max() ?? 0
        try await connection.query("SELECT pg_notify(\(channel), \(String(latest)))", logger: logger)
    }

    static func events(after cursor: Int64, for audience: EventAudience, limit: Int, on client: PostgresClient, logger: Logger) async throws -> [FeedEvent] {
        let query: PostgresQuery = switch audience {
        case .everyone:
            "SELECT sequence, owner, kind, data FROM feed_event WHERE sequence > \(cursor) ORDER BY sequence LIMIT \(limit)"
        case let .reader(owner):
            """
            (SELECT sequence, owner, kind, data FROM feed_event WHERE owner IS NULL AND sequence > \(cursor) ORDER BY sequence LIMIT \(limit))
            UNION ALL (SELECT sequence, owner, kind, data FROM feed_event WHERE owner = \(owner) AND kind <> 'sign-out' AND sequence > \(cursor) ORDER BY sequence LIMIT \(limit))
            ORDER BY sequence LIMIT \(limit)
            """
        }
        var events: [FeedEvent] = []
        for (sequence, owner, kind, data) in try await client.allRows(query, logger: logger).decode((Int64, String?, String, String).self) {
            guard let kind = FeedEvent.Kind(rawValue: kind) else { continue }
            events.append(FeedEvent(sequence: sequence, owner: owner, kind: kind, data: data))
        }
        return events
    }

    static func bounds(on client: PostgresClient, logger: Logger) async throws -> EventLogBounds {
        // The last committed sequence (commits come in their order: see ``append``), or the last
        // pruned when every event was; never one an open transaction took but may not commit.
        let rows = try await client.allRows("""
            SELECT GREATEST(coalesce((SELECT max(sequence) FROM feed_event), 0), pruned_through), pruned_through FROM feed_state WHERE id = 1
            """, logger: logger)
        guard let row = rows.first else { return EventLogBounds(latest: 0, prunedThrough: 0) }
        let (latest, pruned) = try row.decode((Int64, Int64).self)
        return EventLogBounds(latest: latest, prunedThrough: pruned)
    }

    static func prune(writtenBefore date: Date, on client: PostgresClient, logger: Logger) async throws {
        _ = try await client.withTransaction(logger: logger) { connection in
            try await connection.query("""
                WITH gone AS (DELETE FROM feed_event WHERE created_at < \(date) RETURNING sequence)
                UPDATE feed_state SET pruned_through = GREATEST(pruned_through, (SELECT coalesce(max(sequence), 0) FROM gone)) WHERE id = 1
                """, logger: logger)
        }
    }
}
