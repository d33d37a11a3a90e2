import Logging
import MovieContract
import MovieServer
import PostgresNIO

/// Reads movies with their casts from the PostgreSQL catalog tables.
enum PostgresCatalogQueries {
    /// The movies `query` selects (id, name, year, release_date, grossing, rating), in its order, each with its cast.
    static func movies(_ client: PostgresClient, _ query: PostgresQuery, logger: Logger) async throws -> [CatalogMovie] {
        try await client.withConnection { connection in try await movies(connection, query, logger: logger) }
    }

    static func movies(_ connection: PostgresConnection, _ query: PostgresQuery, logger: Logger) async throws -> [CatalogMovie] {
        var movies: [CatalogMovie] = []
        for (id, name, year, releaseDate, grossing, rating) in try await connection.allRows(query, logger: logger)
            .decode((Int, String, Int, String, Int, Double).self) {
            movies.append(CatalogMovie(name: name, id: id, year: year, releaseDate: releaseDate, grossing: grossing, rating: rating, cast: []))
        }
        guard !movies.isEmpty else { return [] }
        var casts: [Int: [CatalogMovie.Actor]] = [:]
        let castQuery: PostgresQuery = """
            SELECT movie_cast.movie_id, actor.name FROM movie_cast JOIN actor ON actor.id = movie_cast.actor_id
            WHERE movie_cast.movie_id = ANY(\(movies.map(\.id))) ORDER BY movie_cast.movie_id, movie_cast.position
            """
        for (movieID, name) in try await connection.allRows(castQuery, logger: logger).decode((Int, String).self) {
            casts[movieID, default: []].append(CatalogMovie.Actor(name: name))
        }
        let details = try await self.details(of: movies.map(\.id), connection, logger: logger)
        return movies.map { movie in
            var movie = movie
            movie.cast = casts[movie.id] ?? []
            movie.details = details[movie.id] ?? CatalogMovieDetails()
            return movie
        }
    }

    /// The details of those of `ids` that have any (a movie from IMDb's data sets).
    private static func details(of ids: [Int], _ connection: PostgresConnection, logger: Logger) async throws -> [Int: CatalogMovieDetails] {
        var details: [Int: CatalogMovieDetails] = [:]
        for (id, imdbID, original, runtime, genres, votes) in try await connection.allRows("""
            SELECT id, imdb_id, original_title, runtime_minutes, genres, votes FROM movie
            WHERE id = ANY(\(ids)) AND (imdb_id IS NOT NULL OR original_title IS NOT NULL OR runtime_minutes IS NOT NULL OR genres IS NOT NULL OR votes IS NOT NULL)
            """, logger: logger).decode((Int, String?, String?, Int?, String?, Int?).self) {
            details[id] = CatalogMovieDetails(
                imdbID: imdbID, originalTitle: original, runtimeMinutes: runtime, genres: genres.map { $0.split(separator: ",").map(String.init) }, votes: votes
            )
        }
        return details
    }

    /// The stored movies among `ids`, by id.
    static func movies(_ connection: PostgresConnection, ids: [Int], logger: Logger) async throws -> [Int: CatalogMovie] {
        let movies = try await movies(
            connection, "SELECT id, name, year, release_date, grossing, rating FROM movie WHERE id = ANY(\(ids))", logger: logger
        )
        return Dictionary(uniqueKeysWithValues: movies.map { ($0.id, $0) })
    }
}

/// Writes batches of movies, their actors and casts with array parameters (`unnest`), a few
/// statements a batch, inside the caller's transaction.
struct PostgresCatalogWriter {
    let connection: PostgresConnection
    let logger: Logger

    /// Writes `movies`, replacing the casts of `changedIDs` (the movies already stored); a new
    /// movie has no cast to remove, and asking would cost a scan of the casts per batch.
    func write(_ movies: [CatalogMovie], replacingCastsOf changedIDs: [Int]) async throws {
        guard !movies.isEmpty else { return }
        let ids = movies.map(\.id)
        let indexed = movies.map(SearchText.Indexed.init)
        try await connection.query("""
            INSERT INTO movie (id, name, year, release_date, grossing, rating, title_words, title_key, all_words)
            SELECT * FROM unnest(\(ids)::bigint[], \(movies.map(\.name))::text[], \(movies.map(\.year))::bigint[],
                \(movies.map(\.releaseDate))::text[], \(movies.map(\.grossing))::bigint[], \(movies.map(\.rating))::float8[],
                \(indexed.map(\.titleWords))::text[], \(indexed.map(\.titleKey))::text[], \(indexed.map(\.allWords))::text[])
            ON CONFLICT (id) DO UPDATE SET name = excluded.name, year = excluded.year, release_date = excluded.release_date,
                grossing = excluded.grossing, rating = excluded.rating, title_words = excluded.title_words,
                title_key = excluded.title_key, all_words = excluded.all_words
            """, logger: logger)
        // The details of the movies that have any, or had (a stored movie changed): arrays of
        // optionals are written with a stand-in for nil, which NULLIF turns back.
        let changed = Set(changedIDs)
        let detailed = movies.filter { $0.details != CatalogMovieDetails() || changed.contains($0.id) }
        let details = detailed.map(\.details)
        if !detailed.isEmpty { try await connection.query("""
            UPDATE movie SET imdb_id = NULLIF(detail.imdb_id, ''), original_title = NULLIF(detail.original_title, ''),
                runtime_minutes = NULLIF(detail.runtime_minutes, 0), genres = NULLIF(detail.genres, ''), votes = NULLIF(detail.votes, -1)
            FROM unnest(\(detailed.map(\.id))::bigint[], \(details.map { $0.imdbID ?? "" })::text[], \(details.map { $0.originalTitle ?? "" })::text[],
                \(details.map { $0.runtimeMinutes ?? 0 })::bigint[], \(details.map { $0.genres?.joined(separator: ",") ?? "" })::text[],
                \(details.map { $0.votes ?? -1 })::bigint[]) AS detail (id, imdb_id, original_title, runtime_minutes, genres, votes)
            WHERE movie.id = detail.id
            """, logger: logger) }
        if !changedIDs.isEmpty {
            try await connection.query("DELETE FROM movie_cast WHERE movie_id = ANY(\(changedIDs))", logger: logger)
        }
        let names = Array(Set(movies.flatMap { $0.cast.map(\.name) }))
        guard !names.isEmpty else { return }
        try await connection.query(
            "INSERT INTO actor (name) SELECT unnest(\(names)::text[]) ON CONFLICT (name) DO NOTHING", logger: logger
        )
        var actorIDs: [String: Int] = [:]
        for (id, name) in try await connection.allRows("SELECT id, name FROM actor WHERE name = ANY(\(names))", logger: logger)
            .decode((Int, String).self) {
            actorIDs[name] = id
        }
        var castMovies: [Int] = [], positions: [Int] = [], actors: [Int] = []
        for movie in movies {
            for (position, actor) in movie.cast.enumerated() {
                castMovies.append(movie.id)
                positions.append(position)
                actors.append(actorIDs[actor.name] ?? 0)
            }
        }
        try await connection.query("""
            INSERT INTO movie_cast (movie_id, position, actor_id)
            SELECT * FROM unnest(\(castMovies)::bigint[], \(positions)::bigint[], \(actors)::bigint[])
            """, logger: logger)
    }
}
