import Foundation
import MovieContract
import MovieServer
import PostgresNIO

extension PostgresStorage: ShelfStorage {
    public func shelfPage(owner: String, kind: String, after: String?, limit: Int) async throws(StorageError) -> ShelfRead {
        try await run { client in
            try await client.withConnection { connection in
                try await PostgresShelf.page(connection, owner: owner, kind: kind, after: after, limit: limit, logger: self.logger)
            }
        }
    }

    public func applyShelf(_ write: ShelfWrite, now: Date) async throws(StorageError) -> WatchlistAnswer {
        try await run { client in
            try await client.withTransaction(logger: self.logger) { connection in
                try await PostgresShelf.apply(connection, write, now: now, purging: self.shelfPurge.isDue(at: now), lockTimeout: self.queryTimeout, logger: self.logger)
            }
        }
    }
}
