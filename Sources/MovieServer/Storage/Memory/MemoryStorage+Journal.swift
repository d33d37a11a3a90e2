extension MemoryStorage: WatchlistJournaling {
    package func watchlistJournal(owner: String) -> [WatchlistJournalEntry] {
        watchlists.journal(owner: owner)
    }
}
