import Foundation
import Logging
import MovieContract
import MovieServer
import PostgresNIO

/// The shelf's tables in PostgreSQL, one set for every kind. A write takes the owner's advisory
/// lock first, the one a watchlist write takes, so that one owner's writes, on any instance, are
/// applied one after another.
enum PostgresShelf {
    /// The records and the feed's last sequence in one statement, so one snapshot.
    static func page(_ connection: PostgresConnection, owner: String, kind: String, after: String?, limit: Int, logger: Logger) async throws -> ShelfRead {
        var entries: [ShelfEntry] = [], position: Int64 = 0
        for (latest, key, value, changedAt, device, removed) in try await connection.allRows("""
            SELECT position.latest, entry.key, entry.value, entry.changed_at, entry.device, entry.removed
            FROM (SELECT GREATEST(coalesce((SELECT max(sequence) FROM feed_event), 0), pruned_through) AS latest FROM feed_state WHERE id = 1) AS position
            LEFT JOIN LATERAL (
                SELECT * FROM shelf_entry WHERE owner = \(owner) AND kind = \(kind) AND key > \(after ?? "") ORDER BY key LIMIT \(limit + 1)
            ) AS entry ON true
            ORDER BY entry.key
            """, logger: logger).decode((Int64, String?, String?, Int64?, String?, Bool?).self) {
            position = latest
            guard let key, let value, let changedAt, let device, let removed else { continue }
            entries.append(ShelfEntry(key: key, value: value, version: WatchlistVersion(changedAt: changedAt, device: device), removed: removed))
        }
        return ShelfRead(entries: Array(entries.prefix(limit)), feedPosition: position, more: entries.count > limit)
    }

    static func apply(
        _ connection: PostgresConnection, _ write: ShelfWrite, now: Date, purging: Bool, lockTimeout: Duration, logger: Logger
    ) async throws -> WatchlistAnswer {
        // Both end in the database too: a request that gave up leaves no statement running behind it.
        try await connection.query("SELECT set_config('lock_timeout', \(String(lockTimeout.components.seconds * 1000)), true)", logger: logger)
        try await connection.query("SELECT set_config('statement_timeout', \(String(lockTimeout.components.seconds * 1000)), true)", logger: logger)
        try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresWatchlist.ownerLock), hashtext(\(write.owner)))", logger: logger)
        if let account = write.account,
           try await connection.allRows("SELECT 1 FROM account WHERE id = \(account) FOR KEY SHARE", logger: logger).isEmpty {
            return .accountRemoved
        }
        if purging {
            try await connection.query("DELETE FROM shelf_request WHERE created_at < \(now.addingTimeInterval(-WatchlistRetention.keys))", logger: logger)
        }
        var stored: ([UInt8], WatchlistAnswer)?
        for (fingerprint, status, body) in try await connection.allRows(
            "SELECT fingerprint, status, body FROM shelf_request WHERE owner = \(write.owner) AND kind = \(write.kind) AND key = \(write.key)", logger: logger
        ).decode((ByteBuffer, Int, String).self) {
            stored = (Array(buffer: fingerprint), WatchlistAnswer(status: status, body: body))
        }
        var state = ShelfState(storedRequest: stored, seenChanges: [:], entries: [:], knownMovies: [])
        if stored == nil {
            let ids = Array(Set(write.changes.map(\.id)))
            let keys = Array(Set(write.changes.map(\.key)))
            let movies = Array(Set(write.movies.values))
            for (id, fingerprint, orderedAt, outcome) in try await connection.allRows(
                "SELECT id, fingerprint, changed_at, outcome FROM shelf_change WHERE owner = \(write.owner) AND kind = \(write.kind) AND id = ANY(\(ids))",
                logger: logger
            ).decode((String, ByteBuffer, Int64?, String).self) {
                state.seenChanges[id] = SeenChange(fingerprint: Array(buffer: fingerprint), orderedAt: orderedAt, outcome: WatchlistChangeOutcome(rawValue: outcome))
            }
            for (key, value, changedAt, device, removed) in try await connection.allRows("""
                SELECT key, value, changed_at, device, removed FROM shelf_entry
                WHERE owner = \(write.owner) AND kind = \(write.kind) AND key = ANY(\(keys))
                """, logger: logger).decode((String, String, Int64, String, Bool).self) {
                state.entries[key] = ShelfEntry(key: key, value: value, version: WatchlistVersion(changedAt: changedAt, device: device), removed: removed)
            }
            if !movies.isEmpty {
                for id in try await connection.allRows("SELECT id FROM movie WHERE id = ANY(\(movies))", logger: logger).decode(Int.self) {
                    state.knownMovies.insert(id)
                }
            }
        }
        if stored == nil, write.recordLimit != .max {
            let count = try await connection.allRows(
                "SELECT count(*) FROM shelf_entry WHERE owner = \(write.owner) AND kind = \(write.kind)", logger: logger
            ).decode(Int.self).first ?? 0
            state.recordCount = count
        }
        if stored == nil {
            for group in Set(write.groups.values) {
                // The key column compares bytes (COLLATE "C"), so the group is one range of its index.
                let count = try await connection.allRows("""
                    SELECT count(*) FROM shelf_entry WHERE owner = \(write.owner) AND kind = \(write.kind)
                        AND key > \(ShelfKeys.start(of: group)) AND key < \(ShelfKeys.end(of: group)) AND NOT removed
                    """, logger: logger).decode(Int.self).first ?? 0
                state.groupCounts[group] = count
            }
        }
        if stored == nil, let parentKind = write.parentKind, !write.parents.isEmpty {
            // The owner's writes of every kind take the one lock above: a list cannot be deleted
            // between this read and the write of its movie.
            let groups = Array(Set(write.parents.values))
            for key in try await connection.allRows(
                "SELECT key FROM shelf_entry WHERE owner = \(write.owner) AND kind = \(parentKind) AND NOT removed AND key = ANY(\(groups))", logger: logger
            ).decode(String.self) {
                state.knownParents.insert(key)
            }
        }
        let plan = ShelfPlan(write, state: state)
        if !plan.entries.isEmpty {
            let entries = plan.entries
            try await connection.query("""
                INSERT INTO shelf_entry (owner, kind, key, value, changed_at, device, removed)
                SELECT \(write.owner), \(write.kind), * FROM unnest(
                    \(entries.map(\.key))::text[], \(entries.map(\.value))::text[], \(entries.map(\.version.changedAt))::bigint[],
                    \(entries.map(\.version.device))::text[], \(entries.map(\.removed))::boolean[])
                ON CONFLICT (owner, kind, key) DO UPDATE SET value = excluded.value, changed_at = excluded.changed_at,
                    device = excluded.device, removed = excluded.removed
                """, logger: logger)
        }
        try await PostgresFeed.append(
            plan.entries.map { NewFeedEvent.shelf(owner: write.owner, kind: write.kind, entry: $0) }, now: now, on: connection, logger: logger
        )
        if !plan.journal.isEmpty {
            let lines = plan.journal
            try await connection.query("""
                INSERT INTO shelf_change (owner, kind, id, fingerprint, key, outcome, changed_at)
                SELECT \(write.owner), \(write.kind), id, decode(fingerprint, 'hex'), key, outcome, NULLIF(changed_at, \(PostgresWatchlist.noTime)) FROM unnest(
                    \(lines.map(\.change.id))::text[], \(lines.map { PostgresWatchlist.hex($0.change.fingerprint) })::text[],
                    \(lines.map(\.change.key))::text[], \(lines.map(\.outcome.rawValue))::text[], \(lines.map { $0.orderedAt ?? PostgresWatchlist.noTime })::bigint[])
                    AS line (id, fingerprint, key, outcome, changed_at)
                """, logger: logger)
        }
        if plan.recordsAnswer {
            try await connection.query("""
                INSERT INTO shelf_request (owner, kind, key, fingerprint, status, body, created_at)
                VALUES (\(write.owner), \(write.kind), \(write.key), \(ByteBuffer(bytes: write.fingerprint)), \(plan.answer.status), \(plan.answer.body), \(now))
                """, logger: logger)
        }
        return plan.answer
    }
}
