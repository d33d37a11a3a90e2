import Foundation
import GRDB
import MovieContract
import MovieServer

/// The watchlist tables in SQLite: reading the state a write depends on and writing its plan,
/// inside the caller's immediate transaction.
enum SQLiteWatchlist {
    static func list(_ db: Database, owner: String) throws -> [WatchlistEntry] {
        try Row.fetchAll(db, sql: """
            SELECT movie_id, note, changed_at, device, removed FROM watchlist_entry
            WHERE owner = ? ORDER BY changed_at DESC, movie_id
            """, arguments: [owner]).map(entry)
    }

    static func apply(_ db: Database, _ write: WatchlistWrite, now: Date, purging: Bool) throws -> WatchlistAnswer {
        if let account = write.account, try Row.fetchOne(db, sql: "SELECT 1 FROM account WHERE id = ?", arguments: [account]) == nil {
            return .accountRemoved
        }
        if purging {
            try db.execute(sql: "DELETE FROM watchlist_request WHERE created_at < ?", arguments: [now.timeIntervalSince1970 - WatchlistRetention.keys])
        }
        let stored = try Row.fetchOne(
            db, sql: "SELECT fingerprint, status, body FROM watchlist_request WHERE owner = ? AND key = ?", arguments: [write.owner, write.key]
        ).map { row in ([UInt8](row["fingerprint"] as Data), WatchlistAnswer(status: row["status"], body: row["body"])) }
        var state = WatchlistState(storedRequest: stored, seenChanges: [:], entries: [:], knownMovies: [])
        if stored == nil {
            let ids = Array(Set(write.changes.map(\.id)))
            let movies = Array(Set(write.changes.map(\.movieID)))
            let idList = placeholders(ids.count), movieList = placeholders(movies.count)
            for row in try Row.fetchAll(
                db, sql: "SELECT id, fingerprint, changed_at, outcome FROM watchlist_change WHERE owner = ? AND id IN (\(idList))",
                arguments: StatementArguments([write.owner] + ids)
            ) {
                state.seenChanges[row["id"]] = SeenChange(
                    fingerprint: [UInt8](row["fingerprint"] as Data), orderedAt: row["changed_at"], outcome: WatchlistChangeOutcome(rawValue: row["outcome"])
                )
            }
            for row in try Row.fetchAll(
                db, sql: "SELECT movie_id, note, changed_at, device, removed FROM watchlist_entry WHERE owner = ? AND movie_id IN (\(movieList))",
                arguments: StatementArguments([write.owner as any DatabaseValueConvertible] + movies)
            ) {
                let entry = entry(row)
                state.entries[entry.movieID] = entry
            }
            state.knownMovies = Set(try Int.fetchAll(db, sql: "SELECT id FROM movie WHERE id IN (\(movieList))", arguments: StatementArguments(movies)))
        }
        let plan = WatchlistPlan(write, state: state)
        for entry in plan.entries {
            try db.execute(sql: """
                INSERT OR REPLACE INTO watchlist_entry (owner, movie_id, note, changed_at, device, removed) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [write.owner, entry.movieID, entry.note, entry.version.changedAt, entry.version.device, entry.removed])
        }
        try SQLiteFeed.append(plan.entries.map { NewFeedEvent.watchlist(owner: write.owner, entry: $0) }, now: now, in: db)
        for line in plan.journal {
            try db.execute(
                sql: "INSERT INTO watchlist_change (owner, id, fingerprint, movie_id, outcome, changed_at) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [write.owner, line.change.id, Data(line.change.fingerprint), line.change.movieID, line.outcome.rawValue, line.orderedAt]
            )
        }
        if plan.recordsAnswer {
            try db.execute(
                sql: "INSERT INTO watchlist_request (owner, key, fingerprint, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [write.owner, write.key, Data(write.fingerprint), plan.answer.status, plan.answer.body, now.timeIntervalSince1970]
            )
        }
        return plan.answer
    }

    static func journal(_ db: Database, owner: String) throws -> [WatchlistJournalEntry] {
        try Row.fetchAll(db, sql: "SELECT id, movie_id, outcome FROM watchlist_change WHERE owner = ? ORDER BY sequence", arguments: [owner]).map { row in
            WatchlistJournalEntry(changeID: row["id"], movieID: row["movie_id"], outcome: WatchlistChangeOutcome(rawValue: row["outcome"]) ?? .applied)
        }
    }

    static func entry(_ row: Row) -> WatchlistEntry {
        WatchlistEntry(
            movieID: row["movie_id"], note: row["note"],
            version: WatchlistVersion(changedAt: row["changed_at"], device: row["device"]), removed: row["removed"]
        )
    }

    private static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: max(count, 1)).joined(separator: ",")
    }
}
