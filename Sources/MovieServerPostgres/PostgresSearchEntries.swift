import Logging
import MovieContract
import MovieServer
import NIOConcurrencyHelpers
import PostgresNIO

/// What the PostgreSQL catalogue gives the in-process search index: every movie's entry, with
/// the catalogue version, read in one snapshot (`REPEATABLE READ`) so that they agree.
enum PostgresSearchEntries {
    static func read(_ client: PostgresClient, logger: Logger) async throws -> (version: Int64, entries: SearchEntries) {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
            return (try await version(connection, logger: logger), try await entries(connection, logger: logger))
        }
    }

    /// Every movie's entry, as the connection's transaction sees them; `progress` is called every
    /// ten thousand.
    static func entries(_ connection: PostgresConnection, logger: Logger, progress: @escaping @Sendable () -> Void = {}) async throws -> SearchEntries {
        let count = NIOLockedValueBox(0)
        return SearchEntries(try await connection.allRows(
            "SELECT id, year, grossing, rating, release_date, title_key, title_words, all_words, coalesce(runtime_minutes, 0), coalesce(votes, -1), genres FROM movie", logger: logger
        ) { row in
            let (id, year, grossing, rating, releaseDate, titleKey, titleWords, allWords, runtime, votes, genres) = try row.decode(
                (Int, Int, Int, Double, String, String, String, String, Int, Int, String?).self
            )
            if count.withLockedValue({ $0 += 1; return $0 }) % 10_000 == 0 { progress() }
            return SearchEntry(
                id: id, year: year, grossing: grossing, rating: rating, releaseDate: releaseDate,
                titleKey: titleKey, titleWords: titleWords, allWords: allWords,
                runtime: runtime, votes: votes, genres: MovieFilter.genreBits(genres?.split(separator: ",").map(String.init))
            )
        })
    }

    static func version(_ connection: PostgresConnection, logger: Logger) async throws -> Int64 {
        for version in try await connection.allRows("SELECT version FROM catalog_state", logger: logger).decode(Int64.self) {
            return version
        }
        return 0
    }
}
