import Foundation
import GRDB
import MovieContract
import MovieServer

/// The shelf's tables in SQLite, one set for every kind: reading the state a write depends on and
/// writing its plan, inside the caller's immediate transaction.
enum SQLiteShelf {
    static let tables = """
        CREATE TABLE shelf_entry (
            owner TEXT NOT NULL, kind TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
            changed_at INTEGER NOT NULL, device TEXT NOT NULL, removed INTEGER NOT NULL,
            PRIMARY KEY (owner, kind, key)) WITHOUT ROWID;
        CREATE INDEX shelf_entry_newest ON shelf_entry (owner, kind, changed_at DESC, key);
        CREATE TABLE shelf_request (
            owner TEXT NOT NULL, kind TEXT NOT NULL, key TEXT NOT NULL, fingerprint BLOB NOT NULL,
            status INTEGER NOT NULL, body TEXT NOT NULL, created_at REAL NOT NULL,
            PRIMARY KEY (owner, kind, key)) WITHOUT ROWID;
        CREATE INDEX shelf_request_age ON shelf_request (created_at);
        CREATE TABLE shelf_change (
            owner TEXT NOT NULL, kind TEXT NOT NULL, id TEXT NOT NULL, fingerprint BLOB NOT NULL,
            key TEXT NOT NULL, outcome TEXT NOT NULL, changed_at INTEGER,
            PRIMARY KEY (owner, kind, id)) WITHOUT ROWID;
        """

    /// Up to `limit` records after `after`, by key, and whether more follow.
    static func page(_ db: Database, owner: String, kind: String, after: String?, limit: Int) throws -> (entries: [ShelfEntry], more: Bool) {
        // Read by column index from a cursor: a page holds up to thousands of records.
        let cursor = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT key, value, changed_at, device, removed FROM shelf_entry
            WHERE owner = ? AND kind = ? AND key > ? ORDER BY key LIMIT ?
            """), arguments: [owner, kind, after ?? "", limit + 1])
        var rows: [ShelfEntry] = []
        rows.reserveCapacity(min(limit + 1, 5_001))
        while let row = try cursor.next() {
            rows.append(ShelfEntry(key: row[0], value: row[1], version: WatchlistVersion(changedAt: row[2], device: row[3]), removed: row[4]))
        }
        return (Array(rows.prefix(limit)), rows.count > limit)
    }

    static func apply(_ db: Database, _ write: ShelfWrite, now: Date, purging: Bool) throws -> WatchlistAnswer {
        if let account = write.account, try Row.fetchOne(db, sql: "SELECT 1 FROM account WHERE id = ?", arguments: [account]) == nil {
            return .accountRemoved
        }
        if purging {
            try db.execute(sql: "DELETE FROM shelf_request WHERE created_at < ?", arguments: [now.timeIntervalSince1970 - WatchlistRetention.keys])
        }
        let stored = try Row.fetchOne(
            db, sql: "SELECT fingerprint, status, body FROM shelf_request WHERE owner = ? AND kind = ? AND key = ?",
            arguments: [write.owner, write.kind, write.key]
        ).map { row in ([UInt8](row["fingerprint"] as Data), WatchlistAnswer(status: row["status"], body: row["body"])) }
        var state = ShelfState(storedRequest: stored, seenChanges: [:], entries: [:], knownMovies: [])
        if stored == nil {
            let ids = Array(Set(write.changes.map(\.id)))
            let keys = Array(Set(write.changes.map(\.key)))
            let movies = Array(Set(write.movies.values))
            for row in try Row.fetchAll(
                db, sql: "SELECT id, fingerprint, changed_at, outcome FROM shelf_change WHERE owner = ? AND kind = ? AND id IN (\(placeholders(ids.count)))",
                arguments: StatementArguments([write.owner, write.kind] + ids)
            ) {
                state.seenChanges[row["id"]] = SeenChange(
                    fingerprint: [UInt8](row["fingerprint"] as Data), orderedAt: row["changed_at"], outcome: WatchlistChangeOutcome(rawValue: row["outcome"])
                )
            }
            for row in try Row.fetchAll(
                db, sql: "SELECT key, value, changed_at, device, removed FROM shelf_entry WHERE owner = ? AND kind = ? AND key IN (\(placeholders(keys.count)))",
                arguments: StatementArguments([write.owner, write.kind] + keys)
            ) {
                let entry = entry(row)
                state.entries[entry.key] = entry
            }
            if !movies.isEmpty {
                state.knownMovies = Set(try Int.fetchAll(db, sql: "SELECT id FROM movie WHERE id IN (\(placeholders(movies.count)))", arguments: StatementArguments(movies)))
            }
        }
        if stored == nil, write.recordLimit != .max {
            state.recordCount = try Int.fetchOne(db, sql: "SELECT count(*) FROM shelf_entry WHERE owner = ? AND kind = ?", arguments: [write.owner, write.kind]) ?? 0
        }
        for group in Set(write.groups.values) where stored == nil {
            state.groupCounts[group] = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM shelf_entry WHERE owner = ? AND kind = ? AND key > ? AND key < ? AND removed = 0
                """, arguments: [write.owner, write.kind, ShelfKeys.start(of: group), ShelfKeys.end(of: group)]) ?? 0
        }
        if stored == nil, let parentKind = write.parentKind, !write.parents.isEmpty {
            let groups = Array(Set(write.parents.values))
            state.knownParents = Set(try String.fetchAll(
                db, sql: "SELECT key FROM shelf_entry WHERE owner = ? AND kind = ? AND removed = 0 AND key IN (\(placeholders(groups.count)))",
                arguments: StatementArguments([write.owner, parentKind] + groups)
            ))
        }
        let plan = ShelfPlan(write, state: state)
        for entry in plan.entries {
            try db.execute(sql: """
                INSERT OR REPLACE INTO shelf_entry (owner, kind, key, value, changed_at, device, removed) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [write.owner, write.kind, entry.key, entry.value, entry.version.changedAt, entry.version.device, entry.removed])
        }
        try SQLiteFeed.append(plan.entries.map { NewFeedEvent.shelf(owner: write.owner, kind: write.kind, entry: $0) }, now: now, in: db)
        for line in plan.journal {
            try db.execute(
                sql: "INSERT INTO shelf_change (owner, kind, id, fingerprint, key, outcome, changed_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [write.owner, write.kind, line.change.id, Data(line.change.fingerprint), line.change.key, line.outcome.rawValue, line.orderedAt]
            )
        }
        if plan.recordsAnswer {
            try db.execute(
                sql: "INSERT INTO shelf_request (owner, kind, key, fingerprint, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [write.owner, write.kind, write.key, Data(write.fingerprint), plan.answer.status, plan.answer.body, now.timeIntervalSince1970]
            )
        }
        return plan.answer
    }

    static func entry(_ row: Row) -> ShelfEntry {
        ShelfEntry(
            key: row["key"], value: row["value"],
            version: WatchlistVersion(changedAt: row["changed_at"], device: row["device"]), removed: row["removed"]
        )
    }

    private static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: max(count, 1)).joined(separator: ",")
    }
}
