import GRDB

extension StoreMigrations {
    /// Schema v13: when each movie left a known watchlist (`watchlistRemoval`), as its server said,
    /// so that a replayed event of an earlier change does not bring the movie back, and a change
    /// made after seeing the removal is stamped after it whatever this machine's clock says.
    static func addWatchlistRemovals(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE watchlistRemoval (
                apiId INTEGER NOT NULL, movieId INTEGER NOT NULL, changedAt INTEGER NOT NULL, PRIMARY KEY (apiId, movieId))
            """)
    }
}
