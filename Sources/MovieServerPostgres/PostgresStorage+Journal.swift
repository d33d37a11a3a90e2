import MovieServer
import PostgresNIO

extension PostgresStorage: WatchlistJournaling {
    package func watchlistJournal(owner: String) async throws(StorageError) -> [WatchlistJournalEntry] {
        try await run { client in
            try await client.withConnection { connection in try await PostgresWatchlist.journal(connection, owner: owner, logger: self.logger) }
        }
    }
}
