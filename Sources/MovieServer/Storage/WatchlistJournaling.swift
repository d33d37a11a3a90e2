import MovieContract

/// The server's log of the changes a watchlist received, each once, in the order they were
/// applied: what the tests read to count the changes that arrived.
package protocol WatchlistJournaling: Sendable {
    func watchlistJournal(owner: String) async throws(StorageError) -> [WatchlistJournalEntry]
}

/// One line of a watchlist's log: a change, and what became of it.
package struct WatchlistJournalEntry: Sendable, Hashable {
    package var changeID: String
    package var movieID: Int
    package var outcome: WatchlistChangeOutcome

    package init(changeID: String, movieID: Int, outcome: WatchlistChangeOutcome) {
        self.changeID = changeID
        self.movieID = movieID
        self.outcome = outcome
    }
}
