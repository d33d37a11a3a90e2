import Foundation
import GRDB
import MovieContract
import MovieServer

extension SQLiteStorage: WatchlistStorage {
    public func watchlistRead(owner: String) async throws(StorageError) -> WatchlistRead {
        try await read { db in
            WatchlistRead(entries: try SQLiteWatchlist.list(db, owner: owner), feedPosition: try SQLiteFeed.bounds(in: db).latest)
        }
    }

    public func applyWatchlist(_ write: WatchlistWrite, now: Date) async throws(StorageError) -> WatchlistAnswer {
        let purging = watchlistPurge.isDue(at: now)
        return try await self.write { db in try SQLiteWatchlist.apply(db, write, now: now, purging: purging) }
    }

    public func watchlistSize(owner: String) async throws(StorageError) -> Int {
        try await read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM watchlist_entry WHERE owner = ? AND removed = 0", arguments: [owner]) ?? 0
        }
    }

    public func moveWatchlist(from owner: String, toAccount name: String) async throws(StorageError) -> Int {
        try await write { db in
            guard let id = try String.fetchOne(db, sql: "SELECT id FROM account WHERE name = ?", arguments: [name]) else { return 0 }
            let target = WatchlistOwner.account(id: id)
            let adopted = try Row.fetchAll(db, sql: """
                INSERT INTO watchlist_entry (owner, movie_id, note, changed_at, device, removed)
                SELECT ?, movie_id, note, changed_at, device, removed FROM watchlist_entry WHERE owner = ? AND true ORDER BY movie_id
                ON CONFLICT (owner, movie_id) DO UPDATE SET
                    note = excluded.note, changed_at = excluded.changed_at, device = excluded.device, removed = excluded.removed
                WHERE excluded.changed_at > watchlist_entry.changed_at
                RETURNING movie_id, note, changed_at, device, removed
                """, arguments: [target, owner]).map(SQLiteWatchlist.entry)
            try SQLiteFeed.append(adopted.map { NewFeedEvent.watchlist(owner: target, entry: $0) }, now: Date(), in: db)
            try db.execute(sql: "DELETE FROM watchlist_entry WHERE owner = ?", arguments: [owner])
            let moved = db.changesCount
            try db.execute(sql: "DELETE FROM watchlist_request WHERE owner = ?", arguments: [owner])
            return moved
        }
    }
}
