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

    public func moveWatchlist(from owner: String, toAccount name: String) async throws(StorageError) -> Int {
        try await run { client in
            try await client.withTransaction(logger: self.logger) { connection in
                let found = try await connection.allRows("SELECT id FROM account WHERE name = \(name)", logger: self.logger)
                guard let id = try found.first?.decode(String.self) else { return 0 }
                let target = WatchlistOwner.account(id: id)
                let adopted = try await PostgresWatchlist.entries(
                    connection,
                    """
                    INSERT INTO watchlist_entry (owner, movie_id, note, changed_at, device, removed)
                    SELECT \(target), movie_id, note, changed_at, device, removed FROM watchlist_entry WHERE owner = \(owner) ORDER BY movie_id
                    ON CONFLICT (owner, movie_id) DO UPDATE SET
                        note = excluded.note, changed_at = excluded.changed_at, device = excluded.device, removed = excluded.removed
                    WHERE excluded.changed_at > watchlist_entry.changed_at
                    RETURNING movie_id, note, changed_at, device, removed
                    """,
                    logger: self.logger
                )
                try await PostgresFeed.append(
                    adopted.map { NewFeedEvent.watchlist(owner: target, entry: $0) }, now: Date(), on: connection, logger: self.logger
                )
                let moved = try await connection.allRows("DELETE FROM watchlist_entry WHERE owner = \(owner) RETURNING movie_id", logger: self.logger).count
                try await connection.query("DELETE FROM watchlist_request WHERE owner = \(owner)", logger: self.logger)
                return moved
            }
        }
    }
}
