import GRDB

extension StoreMigrations {
    /// When each movie and list was last shown or fetched, as a tick of the store's own use clock
    /// (not the wall clock, which may be wrong or go back), the order eviction removes them in;
    /// and what each open screen shows, which eviction never removes. Until now, a thing's use
    /// was its fetch.
    static func trackUse(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE movie ADD COLUMN lastUsed INTEGER NOT NULL DEFAULT 0;
            UPDATE movie SET lastUsed = CAST(fetchedAt AS INTEGER);
            CREATE INDEX movie_by_lastUsed ON movie (lastUsed);
            ALTER TABLE listSnapshot ADD COLUMN lastUsed INTEGER NOT NULL DEFAULT 0;
            UPDATE listSnapshot SET lastUsed = CAST(fetchedAt AS INTEGER);
            CREATE INDEX listSnapshot_by_lastUsed ON listSnapshot (lastUsed);
            CREATE TABLE useClock (id INTEGER PRIMARY KEY CHECK (id = 1), tick INTEGER NOT NULL);
            INSERT INTO useClock (id, tick) VALUES (1, max(
                coalesce((SELECT max(lastUsed) FROM movie), 0), coalesce((SELECT max(lastUsed) FROM listSnapshot), 0)));
            CREATE TABLE shownMovie (
                process INTEGER NOT NULL, apiId INTEGER NOT NULL, movieId INTEGER NOT NULL,
                PRIMARY KEY (process, apiId, movieId)) WITHOUT ROWID;
            CREATE INDEX shownMovie_by_movie ON shownMovie (apiId, movieId);
            CREATE TABLE shownList (
                process INTEGER NOT NULL, apiId INTEGER NOT NULL, query TEXT NOT NULL,
                PRIMARY KEY (process, apiId, query)) WITHOUT ROWID;
            """)
    }
}
