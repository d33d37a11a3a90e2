import Foundation
import Logging
import MovieContract
import MovieServer
import PostgresNIO

/// The watchlist tables in PostgreSQL. A write takes a transaction-scoped advisory lock on its
/// owner first, so that writes of one owner, on any instance, are applied one after another and
/// each sees what the one before it committed.
enum PostgresWatchlist {
    /// The list and the feed's last sequence in one statement, so one snapshot: the log's
    /// sequences are committed in order, so the snapshot holds every event up to the one it reads.
    static func read(_ connection: PostgresConnection, owner: String, logger: Logger) async throws -> WatchlistRead {
        var entries: [WatchlistEntry] = [], position: Int64 = 0
        for (latest, movieID, note, changedAt, device, removed) in try await connection.allRows("""
            SELECT position.latest, entry.movie_id, entry.note, entry.changed_at, entry.device, entry.removed
            FROM (SELECT GREATEST(coalesce((SELECT max(sequence) FROM feed_event), 0), pruned_through) AS latest FROM feed_state WHERE id = 1) AS position
            LEFT JOIN watchlist_entry AS entry ON entry.owner = \(owner)
            ORDER BY entry.changed_at DESC, entry.movie_id
            """, logger: logger).decode((Int64, Int?, String?, Int64?, String?, Bool?).self) {
            position = latest
            guard let movieID, let note, let changedAt, let device, let removed else { continue }
            entries.append(WatchlistEntry(movieID: movieID, note: note, version: WatchlistVersion(changedAt: changedAt, device: device), removed: removed))
        }
        return WatchlistRead(entries: entries, feedPosition: position)
    }

    static func apply(
        _ connection: PostgresConnection, _ write: WatchlistWrite, now: Date, purging: Bool, lockTimeout: Duration, logger: Logger
    ) async throws -> WatchlistAnswer {
        // A wait for the owner's lock ends in the database, not only in this process: a request
        // that gave up must not leave a transaction waiting behind it.
        try await connection.query("SELECT set_config('lock_timeout', \(String(lockTimeout.components.seconds * 1000)), true)", logger: logger)
        try await connection.query("SELECT pg_advisory_xact_lock(\(ownerLock), hashtext(\(write.owner)))", logger: logger)
        // The account's row, shared until the commit: a removal (which takes it for update)
        // waits for this write and then deletes what it wrote, or this write waits for the
        // removal and finds no account.
        if let account = write.account,
           try await connection.allRows("SELECT 1 FROM account WHERE id = \(account) FOR KEY SHARE", logger: logger).isEmpty {
            return .accountRemoved
        }
        if purging {
            try await connection.query("DELETE FROM watchlist_request WHERE created_at < \(now.addingTimeInterval(-WatchlistRetention.keys))", logger: logger)
        }
        var stored: ([UInt8], WatchlistAnswer)?
        for (fingerprint, status, body) in try await connection.allRows(
            "SELECT fingerprint, status, body FROM watchlist_request WHERE owner = \(write.owner) AND key = \(write.key)", logger: logger
        ).decode((ByteBuffer, Int, String).self) {
            stored = (Array(buffer: fingerprint), WatchlistAnswer(status: status, body: body))
        }
        var state = WatchlistState(storedRequest: stored, seenChanges: [:], entries: [:], knownMovies: [])
        if stored == nil {
            let ids = Array(Set(write.changes.map(\.id)))
            let movies = Array(Set(write.changes.map(\.movieID)))
            for (id, fingerprint, orderedAt, outcome) in try await connection.allRows(
                "SELECT id, fingerprint, changed_at, outcome FROM watchlist_change WHERE owner = \(write.owner) AND id = ANY(\(ids))", logger: logger
            ).decode((String, ByteBuffer, Int64?, String).self) {
                state.seenChanges[id] = SeenChange(fingerprint: Array(buffer: fingerprint), orderedAt: orderedAt, outcome: WatchlistChangeOutcome(rawValue: outcome))
            }
            for entry in try await entries(connection, """
                SELECT movie_id, note, changed_at, device, removed FROM watchlist_entry
                WHERE owner = \(write.owner) AND movie_id = ANY(\(movies))
                """, logger: logger) {
                state.entries[entry.movieID] = entry
            }
            for id in try await connection.allRows("SELECT id FROM movie WHERE id = ANY(\(movies))", logger: logger).decode(Int.self) {
                state.knownMovies.insert(id)
            }
        }
        let plan = WatchlistPlan(write, state: state)
        if !plan.entries.isEmpty {
            let entries = plan.entries
            try await connection.query("""
                INSERT INTO watchlist_entry (owner, movie_id, note, changed_at, device, removed)
                SELECT \(write.owner), * FROM unnest(
                    \(entries.map(\.movieID))::bigint[], \(entries.map(\.note))::text[], \(entries.map(\.version.changedAt))::bigint[],
                    \(entries.map(\.version.device))::text[], \(entries.map(\.removed))::boolean[])
                ON CONFLICT (owner, movie_id) DO UPDATE SET note = excluded.note, changed_at = excluded.changed_at,
                    device = excluded.device, removed = excluded.removed
                """, logger: logger)
        }
        try await PostgresFeed.append(plan.entries.map { NewFeedEvent.watchlist(owner: write.owner, entry: $0) }, now: now, on: connection, logger: logger)
        if !plan.journal.isEmpty {
            let lines = plan.journal
            try await connection.query("""
                INSERT INTO watchlist_change (owner, id, fingerprint, movie_id, outcome, changed_at)
                SELECT \(write.owner), id, decode(fingerprint, 'hex'), movie_id, outcome, NULLIF(changed_at, \(Self.noTime)) FROM unnest(
                    \(lines.map(\.change.id))::text[], \(lines.map { Self.hex($0.change.fingerprint) })::text[],
                    \(lines.map(\.change.movieID))::bigint[], \(lines.map(\.outcome.rawValue))::text[], \(lines.map { $0.orderedAt ?? Self.noTime })::bigint[])
                    WITH ORDINALITY AS line (id, fingerprint, movie_id, outcome, changed_at, position)
                ORDER BY position
                """, logger: logger)
        }
        if plan.recordsAnswer {
            try await connection.query("""
                INSERT INTO watchlist_request (owner, key, fingerprint, status, body, created_at)
                VALUES (\(write.owner), \(write.key), \(ByteBuffer(bytes: write.fingerprint)), \(plan.answer.status), \(plan.answer.body), \(now))
                """, logger: logger)
        }
        return plan.answer
    }

    /// How an array of times carries "none" (a text array of optionals does not travel).
    static let noTime = Int64.min

    static func journal(_ connection: PostgresConnection, owner: String, logger: Logger) async throws -> [WatchlistJournalEntry] {
        var lines: [WatchlistJournalEntry] = []
        for (id, movieID, outcome) in try await connection.allRows(
            "SELECT id, movie_id, outcome FROM watchlist_change WHERE owner = \(owner) ORDER BY sequence", logger: logger
        ).decode((String, Int, String).self) {
            lines.append(WatchlistJournalEntry(changeID: id, movieID: movieID, outcome: WatchlistChangeOutcome(rawValue: outcome) ?? .applied))
        }
        return lines
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            let digits = String(byte, radix: 16)
            return byte < 16 ? "0" + digits : digits
        }.joined()
    }

    /// The first key of the advisory locks that serialise one owner's writes (the second is the
    /// owner's hash); another constant than the migration lock's.
    static let ownerLock: Int32 = 0x4D57_4C53

    static func entries(_ connection: PostgresConnection, _ query: PostgresQuery, logger: Logger) async throws -> [WatchlistEntry] {
        var entries: [WatchlistEntry] = []
        for (movieID, note, changedAt, device, removed) in try await connection.allRows(query, logger: logger)
            .decode((Int, String, Int64, String, Bool).self) {
            entries.append(WatchlistEntry(movieID: movieID, note: note, version: WatchlistVersion(changedAt: changedAt, device: device), removed: removed))
        }
        return entries
    }
}
