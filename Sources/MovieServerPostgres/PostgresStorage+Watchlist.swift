import Foundation
import MovieContract
import MovieServer
import PostgresNIO

extension PostgresStorage: WatchlistStorage {
    public func watchlistRead(owner: String) async throws(StorageError) -> WatchlistRead {
        try await run { client in
            try await client.withConnection { connection in try await PostgresWatchlist.read(connection, owner: owner, logger: self.logger) }
        }
    }

    public func applyWatchlist(_ write: WatchlistWrite, now: Date) async throws(StorageError) -> WatchlistAnswer {
        try await run { client in
            try await client.withTransaction(logger: self.logger) { connection in
                try await PostgresWatchlist.apply(connection, write, now: now, purging: self.watchlistPurge.isDue(at: now), lockTimeout: self.queryTimeout, logger: self.logger)
            }
        }
    }

    public func watchlistSize(owner: String) async throws(StorageError) -> Int {
        try await run { client in
            try await client.allRows("SELECT count(*) FROM watchlist_entry WHERE owner = \(owner) AND NOT removed", logger: self.logger).decode(Int.self).first ?? 0
        }
    }
}
