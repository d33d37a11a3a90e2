import Logging
import MovieContract
import MovieServer
import NIOConcurrencyHelpers
import PostgresNIO

/// The server's tables in PostgreSQL, created and changed by named, versioned steps recorded in
/// `marquee_schema_migration`. Steps run in one transaction under an advisory lock, so instances
/// starting together migrate once.
enum PostgresSchema {
    /// A step: its statements, then, for a step that derives data, Swift code in the same transaction.
    struct Step: Sendable {
        let name: String
        let statements: [PostgresQuery]
        var then: (@Sendable (PostgresConnection, Logger) async throws -> Void)?
        /// The step changes what a running instance of an older Marquee reads or writes, in a way
        /// it cannot follow (a step that only adds is safe beside them): it is applied only when
        /// no session of an older version is connected to the database.
        var breaksOlderInstances = false
    }

    /// The `application_name` of every session an instance opens: the number of steps it knows,
    /// by which a migration tells an instance that knows its step from an older one.
    static let sessionName = "marquee schema \(steps.count)"

    static let steps: [Step] = [
        Step(name: "server-v1-catalog", statements: [
            """
            CREATE TABLE movie (
                id BIGINT PRIMARY KEY, name TEXT NOT NULL, year INTEGER NOT NULL, release_date TEXT NOT NULL,
                grossing BIGINT NOT NULL, rating DOUBLE PRECISION NOT NULL)
            """,
            "CREATE INDEX movie_top_grossing ON movie (year, grossing DESC, id DESC)",
            "CREATE INDEX movie_top_rated ON movie (year, rating DESC, id DESC)",
            "CREATE TABLE actor (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL UNIQUE)",
            """
            CREATE TABLE movie_cast (
                movie_id BIGINT NOT NULL REFERENCES movie (id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                actor_id BIGINT NOT NULL REFERENCES actor (id),
                PRIMARY KEY (movie_id, position))
            """,
            "CREATE TABLE catalog_state (id INTEGER PRIMARY KEY CHECK (id = 1), version BIGINT NOT NULL)",
            "INSERT INTO catalog_state (id, version) VALUES (1, 0)",
        ]),
        Step(name: "server-v1-refresh-tokens", statements: [
            "CREATE TABLE refresh_token (token_hash BYTEA PRIMARY KEY, client_id TEXT NOT NULL, expires_at TIMESTAMPTZ NOT NULL)",
            "CREATE INDEX refresh_token_expiry ON refresh_token (expires_at)",
        ]),
        Step(name: "server-v2-search", statements: [
            "ALTER TABLE movie ADD COLUMN title_words TEXT NOT NULL DEFAULT ''",
            #"ALTER TABLE movie ADD COLUMN title_key TEXT COLLATE "C" NOT NULL DEFAULT ''"#,
            "ALTER TABLE movie ADD COLUMN all_words TEXT NOT NULL DEFAULT ''",
            "CREATE INDEX movie_words ON movie USING GIN (to_tsvector('simple', all_words))",
            #"CREATE INDEX movie_year_released ON movie (year, release_date COLLATE "C", id)"#,
            "CREATE INDEX movie_year_title ON movie (year, title_key, id)",
            "CREATE INDEX movie_grossing ON movie (grossing, id)",
            "CREATE INDEX movie_rating ON movie (rating, id)",
            #"CREATE INDEX movie_released ON movie (release_date COLLATE "C", id)"#,
            "CREATE INDEX movie_title ON movie (title_key, id)",
        ], then: PostgresSearch.indexStoredMovies),
        Step(name: "server-v3-watchlist", statements: [
            """
            CREATE TABLE watchlist_entry (
                owner TEXT NOT NULL, movie_id BIGINT NOT NULL, note TEXT NOT NULL,
                changed_at BIGINT NOT NULL, device TEXT NOT NULL, removed BOOLEAN NOT NULL,
                PRIMARY KEY (owner, movie_id))
            """,
            """
            CREATE TABLE watchlist_request (
                owner TEXT NOT NULL, key TEXT NOT NULL, fingerprint BYTEA NOT NULL,
                status INTEGER NOT NULL, body TEXT NOT NULL, created_at TIMESTAMPTZ NOT NULL,
                PRIMARY KEY (owner, key))
            """,
            "CREATE INDEX watchlist_request_age ON watchlist_request (created_at)",
            """
            CREATE TABLE watchlist_change (
                sequence BIGSERIAL PRIMARY KEY, owner TEXT NOT NULL, id TEXT NOT NULL,
                fingerprint BYTEA NOT NULL, movie_id BIGINT NOT NULL, outcome TEXT NOT NULL,
                UNIQUE (owner, id))
            """,
        ]),
        // The title's words and all the words as stored tsvectors, each with its GIN index: a
        // search counts and reads a relevance at a time (``PostgresTieredSearch``), and a stored
        // vector is not computed again for every row a bitmap scan rechecks.
        Step(name: "server-v4-search-columns", statements: [
            """
            ALTER TABLE movie
                ADD COLUMN title_tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', title_words)) STORED,
                ADD COLUMN all_tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', all_words)) STORED
            """,
            "CREATE INDEX movie_title_tsv ON movie USING GIN (title_tsv)",
            "CREATE INDEX movie_all_tsv ON movie USING GIN (all_tsv)",
            "DROP INDEX movie_words",
            "ANALYZE movie",
        ]),
        // The title order compares the first ``SearchText/titleKeyLength`` code points (`left`
        // counts characters), so a cursor is bounded.
        Step(name: "server-v5-bounded-title-key", statements: [
            "UPDATE movie SET title_key = left(title_key, \(unescaped: String(SearchText.titleKeyLength))) WHERE length(title_key) > \(unescaped: String(SearchText.titleKeyLength))",
        ]),
        Step(name: "server-v6-accounts", statements: [
            "CREATE TABLE account (name TEXT PRIMARY KEY, password_hash TEXT NOT NULL, created_at TIMESTAMPTZ NOT NULL)",
            """
            CREATE TABLE sign_in (
                id TEXT PRIMARY KEY, account TEXT NOT NULL, client_id TEXT NOT NULL, device_name TEXT NOT NULL,
                created_at TIMESTAMPTZ NOT NULL, last_used_at TIMESTAMPTZ NOT NULL)
            """,
            "CREATE INDEX sign_in_account ON sign_in (account)",
            "ALTER TABLE refresh_token ADD COLUMN sign_in_id TEXT, ADD COLUMN used BOOLEAN NOT NULL DEFAULT false",
            "CREATE INDEX refresh_token_sign_in ON refresh_token (sign_in_id)",
            """
            CREATE TABLE device_authorization (
                device_code_hash BYTEA PRIMARY KEY, user_code TEXT NOT NULL UNIQUE, client_id TEXT NOT NULL,
                device_name TEXT NOT NULL, state TEXT NOT NULL, account TEXT, created_at TIMESTAMPTZ NOT NULL,
                expires_at TIMESTAMPTZ NOT NULL, interval INTEGER NOT NULL, last_polled_at TIMESTAMPTZ)
            """,
            "CREATE INDEX device_authorization_expiry ON device_authorization (expires_at)",
            "CREATE TABLE web_session (key TEXT PRIMARY KEY, value BYTEA NOT NULL, expires_at TIMESTAMPTZ)",
            "CREATE INDEX web_session_expiry ON web_session (expires_at)",
        ]),
        Step(name: "server-v7-feed", statements: [
            """
            CREATE TABLE feed_event (
                sequence BIGSERIAL PRIMARY KEY, owner TEXT, kind TEXT NOT NULL, data TEXT NOT NULL, created_at TIMESTAMPTZ NOT NULL)
            """,
            "CREATE INDEX feed_event_owner ON feed_event (owner, sequence)",
            "CREATE INDEX feed_event_created ON feed_event (created_at)",
            "CREATE TABLE feed_state (id INTEGER PRIMARY KEY CHECK (id = 1), pruned_through BIGINT NOT NULL)",
            "INSERT INTO feed_state (id, pruned_through) VALUES (1, 0)",
        ]),
        // What was an account's was keyed by its name, which a new account may take once the old
        // one is removed: it is keyed by an id of the account's own from now on. Rows under a name
        // no account has are a removed account's leftovers, and go.
        Step(name: "server-v8-account-ids", statements: [
            "ALTER TABLE account ADD COLUMN id TEXT",
            "UPDATE account SET id = replace(gen_random_uuid()::text, '-', '')",
            "ALTER TABLE account ALTER COLUMN id SET NOT NULL, ADD CONSTRAINT account_id UNIQUE (id)",
            "DELETE FROM sign_in WHERE account NOT IN (SELECT name FROM account)",
            "ALTER TABLE sign_in ADD COLUMN account_id TEXT",
            "UPDATE sign_in SET account_id = account.id FROM account WHERE account.name = sign_in.account",
            "ALTER TABLE sign_in ALTER COLUMN account_id SET NOT NULL",
            // A sign-in saved while its account is being removed waits for the removal, and is refused.
            "ALTER TABLE sign_in ADD CONSTRAINT sign_in_account FOREIGN KEY (account_id) REFERENCES account (id) ON DELETE CASCADE",
            "ALTER TABLE device_authorization ADD COLUMN account_id TEXT",
            "UPDATE device_authorization SET state = 'denied' WHERE state = 'approved'",
        ] + ["watchlist_entry", "watchlist_request", "watchlist_change", "feed_event"].flatMap { table -> [PostgresQuery] in [
            "DELETE FROM \(unescaped: table) WHERE owner LIKE 'account/%' AND owner NOT IN (SELECT 'account/' || name FROM account)",
            "UPDATE \(unescaped: table) SET owner = 'account/' || account.id FROM account WHERE \(unescaped: table).owner = 'account/' || account.name",
        ] }, breaksOlderInstances: true),
        // Attempts the sign-in page limits, counted where every instance sees them. Page sessions
        // are stored under a digest of their key from now on: the sessions stored under the key
        // itself go (their people sign in again).
        Step(name: "server-v9-attempts", statements: [
            "DELETE FROM web_session",
            "CREATE TABLE sign_in_attempt (key TEXT NOT NULL, id TEXT NOT NULL, at TIMESTAMPTZ NOT NULL)",
            "CREATE INDEX sign_in_attempt_key ON sign_in_attempt (key, at)",
            "CREATE INDEX sign_in_attempt_id ON sign_in_attempt (id)",
            "CREATE INDEX sign_in_attempt_age ON sign_in_attempt (at)",
        ]),
        // Titles are found as people say them (``SearchText/titleWords(_:)``): an article written
        // last comes first, and dotted initials are one word; the movies whose words can change
        // (a comma or a dot in the title, a dot in a cast name) are indexed again. The B-tree of
        // the title words reads the titles that begin with a search's words.
        Step(name: "server-v10-title-words", statements: [
            #"CREATE INDEX movie_title_words ON movie (title_words COLLATE "C")"#,
        ], then: { connection, logger in
            try await PostgresSearch.indexStoredMovies(connection, logger: logger, where: """
                (name LIKE '%,%' OR name LIKE '%.%' OR id IN (
                    SELECT movie_cast.movie_id FROM movie_cast JOIN actor ON actor.id = movie_cast.actor_id WHERE actor.name LIKE '%.%'))
                """)
        }),
        // The search index as it was made, read back at a start instead of made again; stored
        // uncompressed, as its arrays barely compress and are read whole.
        Step(name: "server-v11-search-index-snapshot", statements: [
            """
            CREATE TABLE search_index_snapshot (
                version BIGINT NOT NULL, part INTEGER NOT NULL, parts INTEGER NOT NULL, data BYTEA NOT NULL,
                PRIMARY KEY (version, part))
            """,
            "ALTER TABLE search_index_snapshot ALTER COLUMN data SET STORAGE EXTERNAL",
        ]),
        // Each journaled change keeps the time it was ordered by, which a repeat's result names.
        // Only adds: an older instance beside it journals without the time, and its repeats name none.
        Step(name: "server-v12-journal-times", statements: [
            "ALTER TABLE watchlist_change ADD COLUMN changed_at BIGINT",
        ]),
        // The shelf beyond the watchlist: one set of tables for every kind (``ShelfStorage``).
        // Only adds: an older instance beside it does not serve the shelf's routes.
        Step(name: "server-v13-shelf", statements: [
            """
            CREATE TABLE shelf_entry (
                owner TEXT NOT NULL, kind TEXT NOT NULL, key TEXT COLLATE "C" NOT NULL, value TEXT NOT NULL,
                changed_at BIGINT NOT NULL, device TEXT NOT NULL, removed BOOLEAN NOT NULL,
                PRIMARY KEY (owner, kind, key))
            """,
            "CREATE INDEX shelf_entry_newest ON shelf_entry (owner, kind, changed_at DESC, key)",
            """
            CREATE TABLE shelf_request (
                owner TEXT NOT NULL, kind TEXT NOT NULL, key TEXT NOT NULL, fingerprint BYTEA NOT NULL,
                status INTEGER NOT NULL, body TEXT NOT NULL, created_at TIMESTAMPTZ NOT NULL,
                PRIMARY KEY (owner, kind, key))
            """,
            "CREATE INDEX shelf_request_age ON shelf_request (created_at)",
            """
            CREATE TABLE shelf_change (
                owner TEXT NOT NULL, kind TEXT NOT NULL, id TEXT NOT NULL, fingerprint BYTEA NOT NULL,
                key TEXT NOT NULL, outcome TEXT NOT NULL, changed_at BIGINT,
                PRIMARY KEY (owner, kind, id))
            """,
        ]),
        // What IMDb's data sets tell of a movie beside the original fields. Only adds nullable
        // columns: an older instance beside it reads and writes the movie as before.
        Step(name: "server-v14-movie-details", statements: [
            "ALTER TABLE movie ADD COLUMN imdb_id TEXT",
            "ALTER TABLE movie ADD COLUMN original_title TEXT",
            "ALTER TABLE movie ADD COLUMN runtime_minutes INTEGER",
            "ALTER TABLE movie ADD COLUMN genres TEXT",
            "ALTER TABLE movie ADD COLUMN votes BIGINT",
        ]),
    ]

    /// Refuses `step` while another session is connected to the database that is not an
    /// instance knowing the step (``sessionName``): an older instance, or a client unknown here.
    private static func refuseBesideOlderInstances(
        _ step: Step, on connection: PostgresConnection, location: String, logger: Logger
    ) async throws {
        let knowing = (steps.firstIndex { $0.name == step.name } ?? 0) + 1
        let others = try await connection.allRows("""
            SELECT coalesce(nullif(application_name, ''), 'a session with no name') || ' from ' || coalesce(host(client_addr), 'a local socket')
            FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
                AND NOT (application_name ~ '^marquee schema [0-9]{1,6}$' AND substring(application_name FROM 16)::int >= \(knowing))
            ORDER BY 1
            """, logger: logger).map { try $0.decode(String.self) }
        guard !others.isEmpty else { return }
        let named = others.prefix(3).joined(separator: "; ") + (others.count > 3 ? "; and \(others.count - 3) more" : "")
        throw StorageError.migrationFailed(
            step: step.name,
            reason: """
                it changes what running instances of an older Marquee read and write, and \(others.count) other \
                session\(others.count == 1 ? " is" : "s are") connected to the database (\(named)): stop every older instance \
                (and any other client of this database), start this one, then the others with this version; nothing was changed
                """
        )
    }

    /// An arbitrary constant naming Marquee's migration lock among the database's advisory locks.
    private static let migrationLock = 0x4D41_5251_5545_45

    /// Applies the steps the database lacks. Each statement must be answered within `idleLimit`:
    /// a database that stops answering mid-migration ends it with an error, not a wait forever.
    static func migrate(
        _ client: PostgresClient, location: String, idleLimit: Duration, logger: Logger, through last: String? = nil
    ) async throws(StorageError) {
        let wanted = last.flatMap { last in steps.firstIndex { $0.name == last }.map { steps[...$0] } } ?? steps[...]
        let step = NIOLockedValueBox("checking the schema")
        do {
            try await Deadline.run(idleLimit: idleLimit) { alive in
            try await client.withTransaction(logger: logger) { connection in
                // Polled rather than waited for: an instance that waits behind another's long
                // migration is making progress as long as the database answers each try.
                while try await connection.allRows("SELECT pg_try_advisory_xact_lock(\(migrationLock))", logger: logger).first?.decode(Bool.self) != true {
                    alive()
                    try await Task.sleep(for: .milliseconds(50))
                }
                alive()
                let tables = try await connection.allRows(
                    "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()", logger: logger
                ).map { try $0.decode(String.self) }
                if !tables.isEmpty, !tables.contains("marquee_schema_migration") {
                    throw StorageError.foreign(location, reason: "it holds other tables (\(tables.prefix(3).joined(separator: ", "))) and no Marquee schema")
                }
                try await connection.query(
                    "CREATE TABLE IF NOT EXISTS marquee_schema_migration (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
                    logger: logger
                )
                let applied = Set(try await connection.allRows("SELECT name FROM marquee_schema_migration", logger: logger).map { try $0.decode(String.self) })
                let known = Set(steps.map(\.name))
                if let unknown = applied.subtracting(known).first {
                    throw StorageError.foreign(location, reason: "its schema has the step '\(unknown)', from a newer Marquee")
                }
                alive()
                let pending = wanted.filter { !applied.contains($0.name) }
                // A database with no step yet holds nothing an older instance could be using.
                if !applied.isEmpty, let breaking = pending.first(where: \.breaksOlderInstances) {
                    try await refuseBesideOlderInstances(breaking, on: connection, location: location, logger: logger)
                }
                for next in pending {
                    let name = next.name
                    step.withLockedValue { $0 = name }
                    for statement in next.statements {
                        try await connection.query(statement, logger: logger)
                        alive()
                    }
                    try await next.then?(connection, logger)
                    alive()
                    try await connection.query("INSERT INTO marquee_schema_migration (name) VALUES (\(name))", logger: logger)
                    logger.notice("applied the database migration \(name)")
                }
            }
            }
        } catch is Deadline.Exceeded {
            throw .connectionLost(location, reason: "no answer within \(idleLimit.secondsText) while \(step.withLockedValue { $0 }); nothing of that step was kept")
        } catch {
            if let error = PostgresErrorText.unwrapped(error) as? StorageError { throw error }
            if PostgresErrorText.isConnectionFailure(error) {
                throw .unreachable(location, reason: PostgresErrorText.describe(error))
            }
            throw .migrationFailed(step: step.withLockedValue { $0 }, reason: PostgresErrorText.describe(error))
        }
    }
}
