import Logging
import MovieContract
import MovieServer
import MovieServerSQL
import PostgresNIO
import SearchPlanning

/// A search on the PostgreSQL catalogue: the words through GIN indexes on the stored
/// `to_tsvector('simple', …)` of the title's words and of all the words (the `simple`
/// configuration lowercases and neither stems nor drops words, so a folded word is found as it
/// is), the order and the keyset through B-tree indexes; text keys compare in the `"C"`
/// collation, byte by byte, as SQLite and the in-memory catalogue do. One to three words are read
/// a relevance at a time (``PostgresTieredSearch``).
enum PostgresSearch {
    static func hits(_ client: PostgresClient, _ search: MovieSearch, tierReading: TierReading, logger: Logger) async throws -> [SearchHit] {
        guard !search.matchesNothing else { return [] }
        guard search.filter.isEmpty, let tiers = SearchTiers(words: search.words, limit: search.limit, positionRelevance: search.after?.relevance, strategy: tierReading) else {
            return try await client.withConnection { connection in try await ranked(connection, search, logger: logger) }
        }
        return try await client.withTransaction(logger: logger) { connection in
            let found = try await PostgresTieredSearch(connection: connection, search: search, tiers: tiers, logger: logger).ids()
            let movies = try await PostgresCatalogQueries.movies(connection, ids: found.map(\.id), logger: logger)
            return found.compactMap { id, relevance in movies[id].map { SearchHit(movie: $0, relevance: relevance) } }
        }
    }

    /// The page in one statement: every match (every movie, without words) ranked and sorted.
    static func ranked(_ connection: PostgresConnection, _ search: MovieSearch, logger: Logger) async throws -> [SearchHit] {
        var bindings = PostgresBindings()
        var count = 0
        let placeholder = { () -> String in
            count += 1
            return "$\(count)"
        }
        let parts = SearchSQL(search: search, contains: { "position(\($1) in \($0)) > 0" }, textCollation: #" COLLATE "C""#)
        var values: [SearchSQLValue] = []
        let relevance = parts.relevance(placeholder)
        values += parts.relevanceValues.map { .text($0) }
        let match: ((String) -> String, SearchSQLValue)? = search.words.isEmpty ? nil : ({ "movie.all_tsv @@ to_tsquery('simple', \($0))" }, .text(tsquery(search.words)))
        let (whereClause, bound) = parts.whereClause(match: match, placeholder)
        values += bound
        var sql = "SELECT movie.id, movie.name, movie.year, movie.release_date, movie.grossing, movie.rating, (\(relevance))::bigint AS relevance FROM movie"
        sql += whereClause
        sql += " ORDER BY \(parts.orderBy) LIMIT \(placeholder())"
        values.append(.integer(search.limit + 1))
        for value in values {
            switch value {
            case let .integer(number), let .key(.integer(number)): bindings.append(number)
            case let .text(text), let .key(.text(text)): bindings.append(text)
            case let .key(.number(number)): bindings.append(number)
            }
        }
        var found: [(CatalogMovie, Int)] = []
        for (id, name, year, releaseDate, grossing, rating, relevance) in try await connection.allRows(
            PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger
        ).decode((Int, String, Int, String, Int, Double, Int).self) {
            found.append((CatalogMovie(name: name, id: id, year: year, releaseDate: releaseDate, grossing: grossing, rating: rating, cast: []), relevance))
        }
        guard !found.isEmpty else { return [] }
        let withCasts = try await PostgresCatalogQueries.movies(connection, ids: found.map(\.0.id), logger: logger)
        return found.map { movie, relevance in SearchHit(movie: withCasts[movie.id] ?? movie, relevance: relevance) }
    }

    /// Every word ANDed, the last as a prefix: `'finding' & 'dor':*`. A word holds letters and
    /// digits only, so nothing in it is tsquery syntax.
    static func tsquery(_ words: [String], lastIsPrefix: Bool = true) -> String {
        words.enumerated().map { index, word in "'\(word)'" + (lastIsPrefix && index == words.count - 1 ? ":*" : "") }.joined(separator: " & ")
    }

    /// A movie the search found that was gone when its place was looked up (an import between the two).
    struct Vanished: Error, CustomStringConvertible {
        let id: Int
        var description: String { "movie \(id) was removed while it was being searched" }
    }

    /// Fills the search columns of the movies stored before search existed, a thousand at a time.
    @Sendable static func indexStoredMovies(_ connection: PostgresConnection, logger: Logger) async throws {
        try await indexStoredMovies(connection, logger: logger, where: "true")
    }

    /// Writes again the search columns of the stored movies that meet `condition` (SQL of this
    /// program's own), a thousand at a time.
    static func indexStoredMovies(_ connection: PostgresConnection, logger: Logger, where condition: String) async throws {
        var lastID = Int.min
        while true {
            let batch = try await PostgresCatalogQueries.movies(
                connection,
                PostgresQuery(unsafeSQL: "SELECT id, name, year, release_date, grossing, rating FROM movie WHERE id > $1 AND \(condition) ORDER BY id LIMIT 1000", binds: {
                    var binds = PostgresBindings()
                    binds.append(lastID)
                    return binds
                }()),
                logger: logger
            )
            guard let last = batch.last else { return }
            let indexed = batch.map(SearchText.Indexed.init)
            try await connection.query("""
                UPDATE movie SET title_words = source.title_words, title_key = source.title_key, all_words = source.all_words
                FROM unnest(\(batch.map(\.id))::bigint[], \(indexed.map(\.titleWords))::text[], \(indexed.map(\.titleKey))::text[],
                    \(indexed.map(\.allWords))::text[]) AS source (id, title_words, title_key, all_words)
                WHERE movie.id = source.id
                """, logger: logger)
            lastID = last.id
        }
    }
}
