import Foundation
import GRDB
import MovieContract
import MovieServer

extension SQLiteStorage: ShelfStorage {
    public func shelfPage(owner: String, kind: String, after: String?, limit: Int) async throws(StorageError) -> ShelfRead {
        try await read { db in
            let page = try SQLiteShelf.page(db, owner: owner, kind: kind, after: after, limit: limit)
            return ShelfRead(entries: page.entries, feedPosition: try SQLiteFeed.bounds(in: db).latest, more: page.more)
        }
    }

    public func applyShelf(_ write: ShelfWrite, now: Date) async throws(StorageError) -> WatchlistAnswer {
        let purging = shelfPurge.isDue(at: now)
        return try await self.write { db in try SQLiteShelf.apply(db, write, now: now, purging: purging) }
    }
}
