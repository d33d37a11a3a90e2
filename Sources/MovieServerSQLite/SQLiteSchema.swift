import FTS5Search
import GRDB
import MovieContract
import MovieServer
import SearchPlanning

/// The server's tables in SQLite, created and changed by named, versioned migration steps.
enum SQLiteSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("server-v1-catalog") { db in
            try db.execute(sql: """
                CREATE TABLE movie (
                    id INTEGER PRIMARY KEY, name TEXT NOT NULL, year INTEGER NOT NULL, release_date TEXT NOT NULL,
                    grossing INTEGER NOT NULL, rating REAL NOT NULL);
                CREATE INDEX movie_top_grossing ON movie (year, grossing DESC, id DESC);
                CREATE INDEX movie_top_rated ON movie (year, rating DESC, id DESC);
                CREATE TABLE actor (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE);
                CREATE TABLE movie_cast (
                    movie_id INTEGER NOT NULL REFERENCES movie (id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    actor_id INTEGER NOT NULL REFERENCES actor (id),
                    PRIMARY KEY (movie_id, position)) WITHOUT ROWID;
                CREATE TABLE catalog_state (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL);
                INSERT INTO catalog_state (id, version) VALUES (1, 0);
                """)
        }
        migrator.registerMigration("server-v1-refresh-tokens") { db in
            try db.execute(sql: """
                CREATE TABLE refresh_token (token_hash BLOB PRIMARY KEY, client_id TEXT NOT NULL, expires_at REAL NOT NULL);
                CREATE INDEX refresh_token_expiry ON refresh_token (expires_at);
                """)
        }
        migrator.registerMigration("server-v2-search") { db in
            try db.execute(sql: """
                ALTER TABLE movie ADD COLUMN title_words TEXT NOT NULL DEFAULT '';
                ALTER TABLE movie ADD COLUMN title_key TEXT NOT NULL DEFAULT '';
                CREATE VIRTUAL TABLE movie_search USING fts5(all_words, tokenize = 'unicode61 remove_diacritics 0');
                CREATE INDEX movie_year_released ON movie (year, release_date, id);
                CREATE INDEX movie_year_title ON movie (year, title_key, id);
                CREATE INDEX movie_grossing ON movie (grossing, id);
                CREATE INDEX movie_rating ON movie (rating, id);
                CREATE INDEX movie_released ON movie (release_date, id);
                CREATE INDEX movie_title ON movie (title_key, id);
                """)
            for movie in try SQLiteCatalogQueries.movies(db, sql: "SELECT * FROM movie", arguments: []) {
                let indexed = SearchText.Indexed(movie)
                try db.execute(sql: "UPDATE movie SET title_words = ?, title_key = ? WHERE id = ?", arguments: [indexed.titleWords, indexed.titleKey, movie.id])
                try db.execute(sql: "INSERT INTO movie_search (rowid, all_words) VALUES (?, ?)", arguments: [movie.id, indexed.allWords])
            }
        }
        migrator.registerMigration("server-v3-watchlist") { db in
            try db.execute(sql: """
                CREATE TABLE watchlist_entry (
                    owner TEXT NOT NULL, movie_id INTEGER NOT NULL, note TEXT NOT NULL,
                    changed_at INTEGER NOT NULL, device TEXT NOT NULL, removed INTEGER NOT NULL,
                    PRIMARY KEY (owner, movie_id)) WITHOUT ROWID;
                CREATE TABLE watchlist_request (
                    owner TEXT NOT NULL, key TEXT NOT NULL, fingerprint BLOB NOT NULL,
                    status INTEGER NOT NULL, body TEXT NOT NULL, created_at REAL NOT NULL,
                    PRIMARY KEY (owner, key)) WITHOUT ROWID;
                CREATE INDEX watchlist_request_age ON watchlist_request (created_at);
                CREATE TABLE watchlist_change (
                    sequence INTEGER PRIMARY KEY AUTOINCREMENT, owner TEXT NOT NULL, id TEXT NOT NULL,
                    fingerprint BLOB NOT NULL, movie_id INTEGER NOT NULL, outcome TEXT NOT NULL,
                    UNIQUE (owner, id));
                """)
        }
        migrator.registerMigration("server-v4-search-columns") { db in
            // The title's words and the cast's in columns of their own, so that a search can count
            // the movies with its words in the title (``SearchTiers``). The cast's words are what
            // follows the title's in `all_words`, which starts with them. Prefixes of one to three
            // letters are indexed too: "e" as typed would merge the lists of every word in "e".
            try db.execute(sql: FTS5SearchTables.catalogue.creation(splitting: "movie_search", column: "all_words"))
        }
        migrator.registerMigration("server-v5-bounded-title-key") { db in
            // The title order compares the first ``SearchText/titleKeyLength`` code points (SQLite's
            // substr and length count code points in text), so a cursor is bounded.
            try db.execute(
                sql: "UPDATE movie SET title_key = substr(title_key, 1, ?) WHERE length(title_key) > ?",
                arguments: [SearchText.titleKeyLength, SearchText.titleKeyLength]
            )
        }
        migrator.registerMigration("server-v6-accounts") { db in
            try db.execute(sql: """
                CREATE TABLE account (name TEXT PRIMARY KEY, password_hash TEXT NOT NULL, created_at REAL NOT NULL) WITHOUT ROWID;
                CREATE TABLE sign_in (
                    id TEXT PRIMARY KEY, account TEXT NOT NULL, client_id TEXT NOT NULL, device_name TEXT NOT NULL,
                    created_at REAL NOT NULL, last_used_at REAL NOT NULL) WITHOUT ROWID;
                CREATE INDEX sign_in_account ON sign_in (account);
                ALTER TABLE refresh_token ADD COLUMN sign_in_id TEXT;
                ALTER TABLE refresh_token ADD COLUMN used INTEGER NOT NULL DEFAULT 0;
                CREATE INDEX refresh_token_sign_in ON refresh_token (sign_in_id);
                CREATE TABLE device_authorization (
                    device_code_hash BLOB PRIMARY KEY, user_code TEXT NOT NULL UNIQUE, client_id TEXT NOT NULL,
                    device_name TEXT NOT NULL, state TEXT NOT NULL, account TEXT, created_at REAL NOT NULL,
                    expires_at REAL NOT NULL, interval INTEGER NOT NULL, last_polled_at REAL) WITHOUT ROWID;
                CREATE INDEX device_authorization_expiry ON device_authorization (expires_at);
                CREATE TABLE web_session (key TEXT PRIMARY KEY, value BLOB NOT NULL, expires_at REAL) WITHOUT ROWID;
                CREATE INDEX web_session_expiry ON web_session (expires_at);
                """)
        }
        migrator.registerMigration("server-v7-feed") { db in
            try db.execute(sql: """
                CREATE TABLE feed_event (
                    sequence INTEGER PRIMARY KEY AUTOINCREMENT, owner TEXT, kind TEXT NOT NULL, data TEXT NOT NULL, created_at REAL NOT NULL);
                CREATE INDEX feed_event_owner ON feed_event (owner, sequence);
                CREATE INDEX feed_event_created ON feed_event (created_at);
                CREATE TABLE feed_state (id INTEGER PRIMARY KEY CHECK (id = 1), pruned_through INTEGER NOT NULL);
                INSERT INTO feed_state (id, pruned_through) VALUES (1, 0);
                """)
        }
        migrator.registerMigration("server-v8-account-ids") { db in
            // What was an account's was keyed by its name, which a new account may take once the
            // old one is removed: it is keyed by an id of the account's own from now on. Rows under
            // a name no account has are a removed account's leftovers, and go.
            try db.execute(sql: """
                ALTER TABLE account ADD COLUMN id TEXT NOT NULL DEFAULT '';
                UPDATE account SET id = lower(hex(randomblob(16)));
                CREATE UNIQUE INDEX account_id ON account (id);
                ALTER TABLE sign_in ADD COLUMN account_id TEXT NOT NULL DEFAULT '';
                DELETE FROM sign_in WHERE account NOT IN (SELECT name FROM account);
                UPDATE sign_in SET account_id = (SELECT id FROM account WHERE account.name = sign_in.account);
                ALTER TABLE device_authorization ADD COLUMN account_id TEXT;
                UPDATE device_authorization SET state = 'denied' WHERE state = 'approved';
                """)
            for table in ["watchlist_entry", "watchlist_request", "watchlist_change", "feed_event"] {
                try db.execute(sql: """
                    DELETE FROM \(table) WHERE owner LIKE 'account/%' AND substr(owner, 9) NOT IN (SELECT name FROM account);
                    UPDATE \(table) SET owner = 'account/' || (SELECT id FROM account WHERE account.name = substr(\(table).owner, 9))
                        WHERE owner LIKE 'account/%';
                    """)
            }
        }
        // Page sessions are stored under a digest of their key from now on: the sessions stored
        // under the key itself go (their people sign in again).
        migrator.registerMigration("server-v9-attempts") { db in
            try db.execute(sql: """
                CREATE TABLE sign_in_attempt (key TEXT NOT NULL, id TEXT NOT NULL, at REAL NOT NULL);
                CREATE INDEX sign_in_attempt_key ON sign_in_attempt (key, at);
                CREATE INDEX sign_in_attempt_id ON sign_in_attempt (id);
                CREATE INDEX sign_in_attempt_age ON sign_in_attempt (at);
                DELETE FROM web_session;
                """)
        }
        // Titles are found as people say them (``SearchText/titleWords(_:)``): an article written
        // last comes first, and dotted initials are one word. Only a title with a comma or a dot,
        // or a cast name with a dot, can have other words: those are written again. The index of
        // the title words reads the titles that begin with a search's words.
        migrator.registerMigration("server-v10-title-words") { db in
            let changed = """
                SELECT * FROM movie WHERE name LIKE '%,%' OR name LIKE '%.%' OR id IN (
                    SELECT movie_cast.movie_id FROM movie_cast JOIN actor ON actor.id = movie_cast.actor_id WHERE actor.name LIKE '%.%')
                """
            for movie in try SQLiteCatalogQueries.movies(db, sql: changed, arguments: []) {
                let indexed = SearchText.Indexed(movie)
                try db.execute(sql: "UPDATE movie SET title_words = ? WHERE id = ?", arguments: [indexed.titleWords, movie.id])
                try SQLiteCatalogWriter.index(movie.id, indexed, in: db)
            }
            try db.execute(sql: OrderIndexes.titleWords)
        }
        // The search index as it was made, read back at a start instead of made again.
        migrator.registerMigration("server-v11-search-index-snapshot") { db in
            try db.execute(sql: SQLiteSearchIndexSnapshots.table)
        }
        // Each journaled change keeps the time it was ordered by, which a repeat's result names.
        migrator.registerMigration("server-v12-journal-times") { db in
            try db.execute(sql: "ALTER TABLE watchlist_change ADD COLUMN changed_at INTEGER")
        }
        // The shelf beyond the watchlist: one set of tables for every kind (``ShelfStorage``).
        migrator.registerMigration("server-v13-shelf") { db in
            try db.execute(sql: SQLiteShelf.tables)
        }
        migrator.registerMigration("server-v14-movie-details") { db in
            try db.execute(sql: """
                ALTER TABLE movie ADD COLUMN imdb_id TEXT;
                ALTER TABLE movie ADD COLUMN original_title TEXT;
                ALTER TABLE movie ADD COLUMN runtime_minutes INTEGER;
                ALTER TABLE movie ADD COLUMN genres TEXT;
                ALTER TABLE movie ADD COLUMN votes INTEGER;
                """)
        }
        return migrator
    }

    /// Applies the steps the file lacks, each in a transaction, after checking that the file is ours.
    static func migrate(_ pool: DatabasePool, location: String) async throws(StorageError) {
        let migrator = migrator
        do {
            try await pool.write { db in
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
                if !tables.isEmpty, !tables.contains("grdb_migrations") {
                    throw StorageError.foreign(location, reason: "it holds other tables (\(tables.prefix(3).joined(separator: ", "))) and no Marquee schema")
                }
                if !tables.isEmpty, try !migrator.appliedIdentifiers(db).isSubset(of: Set(migrator.migrations)) {
                    throw StorageError.foreign(location, reason: "its schema was written by another program or a newer Marquee")
                }
                if !tables.isEmpty, !tables.contains("movie") {
                    throw StorageError.foreign(location, reason: "it is another Marquee database (the client's store?)")
                }
            }
            try migrator.migrate(pool)
        } catch let error as StorageError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw .foreign(location, reason: "it is not a SQLite database")
        } catch {
            throw .migrationFailed(step: "sqlite", reason: SQLiteStorage.reason(error))
        }
    }
}
