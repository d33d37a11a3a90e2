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
}
