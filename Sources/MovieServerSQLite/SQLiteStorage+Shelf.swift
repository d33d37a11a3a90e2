import Foundation
import GRDB
import MovieContract
import MovieServer

extension SQLiteStorage: ShelfStorage {
    public func shelfRead(owner: String, kind: String) async throws(StorageError) -> ShelfRead {
        try await read { db in
            ShelfRead(entries: try SQLiteShelf.list(db, owner: owner, kind: kind), feedPosition: try SQLiteFeed.bounds(in: db).latest)
        }
    }

    public func applyShelf(_ write: ShelfWrite, now: Date) async throws(StorageError) -> WatchlistAnswer {
        let purging = shelfPurge.isDue(at: now)
        return try await self.write { db in try SQLiteShelf.apply(db, write, now: now, purging: purging) }
    }
}
