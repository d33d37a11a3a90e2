import GRDB
import MovieServer

extension SQLiteStorage: WatchlistJournaling {
    package func watchlistJournal(owner: String) async throws(StorageError) -> [WatchlistJournalEntry] {
        try await read { db in try SQLiteWatchlist.journal(db, owner: owner) }
    }
}
