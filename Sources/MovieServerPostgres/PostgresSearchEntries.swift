import Logging
import MovieServer
import PostgresNIO

/// What the PostgreSQL catalogue gives the in-process search index: every movie's entry, with
/// the catalogue version, read in one snapshot (`REPEATABLE READ`) so that they agree.
enum PostgresSearchEntries {
    static func read(_ client: PostgresClient, logger: Logger) async throws -> (version: Int64, entries: [SearchEntry]) {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
            return (try await version(connection, logger: logger), try await entries(connection, logger: logger))
        }
    }

    /// Every movie's entry, as the connection's transaction sees them; `progress` is called every
    /// ten thousand.
    static func entries(_ connection: PostgresConnection, logger: Logger, progress: @Sendable () -> Void = {}) async throws -> [SearchEntry] {
        var entries: [SearchEntry] = []
        let rows = try await connection.query(
            "SELECT id, year, grossing, rating, release_date, title_key, title_words, all_words FROM movie", logger: logger
        )
        for try await (id, year, grossing, rating, releaseDate, titleKey, titleWords, allWords) in rows.decode(
            (Int, Int, Int, Double, String, String, String, String).self
        ) {
            entries.append(SearchEntry(
                id: id, year: year, grossing: grossing, rating: rating, releaseDate: releaseDate,
                titleKey: titleKey, titleWords: titleWords, allWords: allWords
            ))
            if entries.count % 10_000 == 0 { progress() }
        }
        return entries
    }

    static func version(_ connection: PostgresConnection, logger: Logger) async throws -> Int64 {
        for try await version in try await connection.query("SELECT version FROM catalog_state", logger: logger).decode(Int64.self) {
            return version
        }
        return 0
    }
}
