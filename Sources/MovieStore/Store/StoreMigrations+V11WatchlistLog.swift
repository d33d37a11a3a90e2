import GRDB

extension StoreMigrations {
    /// Schema v11: each known watchlist entry keeps the title and year its server gave (so that a
    /// movie never fetched here is still named), and `watchlistChangeLog` records every change to
    /// a known watchlist, whichever process made it, so that every window on the store shows each
    /// change once.
    static func addWatchlistLog(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE watchlistEntry ADD COLUMN title TEXT;
            ALTER TABLE watchlistEntry ADD COLUMN year INTEGER;
            CREATE TABLE watchlistChangeLog (
                sequence INTEGER PRIMARY KEY AUTOINCREMENT, apiId INTEGER NOT NULL, movieId INTEGER NOT NULL,
                kind TEXT NOT NULL, note TEXT NOT NULL, changedAt INTEGER NOT NULL);
            CREATE INDEX watchlistChangeLogByAPI ON watchlistChangeLog (apiId, sequence);
            """)
    }
}
