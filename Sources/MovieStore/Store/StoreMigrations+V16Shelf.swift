import GRDB

extension StoreMigrations {
    /// Schema v16: the shelf beyond the watchlist, one set of tables for every kind (ratings, …).
    /// `shelfRecord` is each scope's records as its server last gave them (or as an acknowledged
    /// change made them since), removals kept with their time; `shelfOutbox` the changes made here
    /// and not yet acknowledged, in the order they were made, each with the id it is sent under
    /// on every retry.
    static func addShelf(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE shelfRecord (
                apiId INTEGER NOT NULL REFERENCES api (id), kind TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
                changedAt INTEGER NOT NULL, removed INTEGER NOT NULL, title TEXT, year INTEGER, learnedAt REAL NOT NULL,
                PRIMARY KEY (apiId, kind, key));
            CREATE TABLE shelfOutbox (
                sequence INTEGER PRIMARY KEY AUTOINCREMENT, apiId INTEGER NOT NULL REFERENCES api (id), kind TEXT NOT NULL,
                changeId TEXT NOT NULL UNIQUE, key TEXT NOT NULL, value TEXT, changedAt INTEGER NOT NULL, device TEXT NOT NULL);
            CREATE INDEX shelfOutboxByKind ON shelfOutbox (apiId, kind, sequence);
            """)
    }
}
