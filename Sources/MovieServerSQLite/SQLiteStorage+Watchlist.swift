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
}
