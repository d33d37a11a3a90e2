import GRDB

extension StoreMigrations {
    /// Schema v6: the watchlist, offline-first. `watchlistEntry` is each API's watchlist as its
    /// server last gave it; `watchlistOutbox` the changes made here and not yet acknowledged, in
    /// the order they were made, each with the id it is sent under on every retry;
    /// `watchlistState` what the last pull learnt; `storeDevice` this store's own random id, which
    /// settles ties between devices.
    static func addWatchlist(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE storeDevice (id INTEGER PRIMARY KEY CHECK (id = 1), device TEXT NOT NULL);
            CREATE TABLE watchlistEntry (
                apiId INTEGER NOT NULL REFERENCES api (id), movieId INTEGER NOT NULL, note TEXT NOT NULL,
                changedAt INTEGER NOT NULL, PRIMARY KEY (apiId, movieId));
            CREATE TABLE watchlistState (
                apiId INTEGER PRIMARY KEY REFERENCES api (id), entityTag TEXT, pulledAt REAL,
                serverHasNone INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE watchlistOutbox (
                sequence INTEGER PRIMARY KEY AUTOINCREMENT, apiId INTEGER NOT NULL REFERENCES api (id),
                changeId TEXT NOT NULL UNIQUE, movieId INTEGER NOT NULL, action TEXT NOT NULL,
                note TEXT NOT NULL, changedAt INTEGER NOT NULL, device TEXT NOT NULL);
            CREATE INDEX watchlistOutboxByAPI ON watchlistOutbox (apiId, sequence);
            """)
    }
}
