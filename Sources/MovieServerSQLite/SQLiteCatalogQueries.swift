import GRDB
import MovieContract
import MovieServer

/// Reads movies with their casts from the SQLite catalog tables.
enum SQLiteCatalogQueries {
    /// The movies `sql` selects from `movie`, in its order, each with its cast in order.
    static func movies(_ db: Database, sql: String, arguments: StatementArguments) throws -> [CatalogMovie] {
        let rows = try Row.fetchAll(db, sql: sql, arguments: arguments)
        guard !rows.isEmpty else { return [] }
        let casts = try self.casts(db, movieIDs: rows.map { $0["id"] })
        return rows.map { row in movie(row, cast: casts[row["id"]] ?? []) }
    }

    /// The movie of a `movie` row; the details are those the row's query selected.
    static func movie(_ row: Row, cast: [CatalogMovie.Actor]) -> CatalogMovie {
        var movie = CatalogMovie(
            name: row["name"], id: row["id"], year: row["year"], releaseDate: row["release_date"],
            grossing: row["grossing"], rating: row["rating"], cast: cast
        )
        let genres: String? = row["genres"]
        movie.details = CatalogMovieDetails(
            imdbID: row["imdb_id"], originalTitle: row["original_title"], runtimeMinutes: row["runtime_minutes"],
            genres: genres.map { $0.split(separator: ",").map(String.init) }, votes: row["votes"]
        )
        return movie
    }

    /// The movies `sql` selects, in its order, each with its cast and the integer column `extra` of its row.
    static func movies(_ db: Database, sql: String, arguments: StatementArguments, extra: String) throws -> [(movie: CatalogMovie, extra: Int)] {
        let rows = try Row.fetchAll(db, sql: sql, arguments: arguments)
        guard !rows.isEmpty else { return [] }
        let casts = try self.casts(db, movieIDs: rows.map { $0["id"] })
        return rows.map { row in (movie(row, cast: casts[row["id"]] ?? []), row[extra]) }
    }

    /// The stored movies among `ids`, by id.
    static func movies(_ db: Database, ids: [Int]) throws -> [Int: CatalogMovie] {
        guard !ids.isEmpty else { return [:] }
        let placeholders = databaseQuestionMarks(count: ids.count)
        let movies = try movies(db, sql: "SELECT * FROM movie WHERE id IN (\(placeholders))", arguments: StatementArguments(ids))
        return Dictionary(uniqueKeysWithValues: movies.map { ($0.id, $0) })
    }

    private static func casts(_ db: Database, movieIDs: [Int]) throws -> [Int: [CatalogMovie.Actor]] {
        let placeholders = databaseQuestionMarks(count: movieIDs.count)
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT movie_cast.movie_id, actor.name FROM movie_cast JOIN actor ON actor.id = movie_cast.actor_id
                WHERE movie_cast.movie_id IN (\(placeholders)) ORDER BY movie_cast.movie_id, movie_cast.position
                """,
            arguments: StatementArguments(movieIDs)
        )
        var casts: [Int: [CatalogMovie.Actor]] = [:]
        for row in rows { casts[row["movie_id"], default: []].append(CatalogMovie.Actor(name: row["name"])) }
        return casts
    }
}

/// Writes movies, their actors and casts into the SQLite catalog tables, inside the caller's transaction.
struct SQLiteCatalogWriter {
    let db: Database
    private var actorIDs: [String: Int64] = [:]

    init(db: Database) {
        self.db = db
    }

    /// Writes `movie`; one that `replaces` a stored movie has its cast and words replaced, a new
    /// one skips looking for them.
    mutating func write(_ movie: CatalogMovie, replaces: Bool = true) throws {
        let indexed = SearchText.Indexed(movie)
        try db.cachedStatement(sql: """
            INSERT INTO movie (id, name, year, release_date, grossing, rating, title_words, title_key, imdb_id, original_title, runtime_minutes, genres, votes)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET name = excluded.name, year = excluded.year, release_date = excluded.release_date,
                grossing = excluded.grossing, rating = excluded.rating, title_words = excluded.title_words, title_key = excluded.title_key,
                imdb_id = excluded.imdb_id, original_title = excluded.original_title, runtime_minutes = excluded.runtime_minutes,
                genres = excluded.genres, votes = excluded.votes
            """).execute(arguments: [
                movie.id, movie.name, movie.year, movie.releaseDate, movie.grossing, movie.rating, indexed.titleWords, indexed.titleKey,
                movie.details.imdbID, movie.details.originalTitle, movie.details.runtimeMinutes, movie.details.genres?.joined(separator: ","), movie.details.votes,
            ])
        try Self.index(movie.id, indexed, replacing: replaces, in: db)
        if replaces { try db.cachedStatement(sql: "DELETE FROM movie_cast WHERE movie_id = ?").execute(arguments: [movie.id]) }
        for (position, actor) in movie.cast.enumerated() {
            let actorID = try id(ofActor: actor.name)
            try db.cachedStatement(sql: "INSERT INTO movie_cast (movie_id, position, actor_id) VALUES (?, ?, ?)")
                .execute(arguments: [movie.id, position, actorID])
        }
    }

    /// Makes `indexed` the searchable words of the movie `id` (FTS5 has no upsert: the row is replaced).
    static func index(_ id: Int, _ indexed: SearchText.Indexed, replacing: Bool = true, in db: Database) throws {
        if replacing { try db.cachedStatement(sql: "DELETE FROM movie_words WHERE rowid = ?").execute(arguments: [id]) }
        try db.cachedStatement(sql: "INSERT INTO movie_words (rowid, title_words, cast_words) VALUES (?, ?, ?)")
            .execute(arguments: [id, indexed.titleWords, indexed.castWords])
    }

    private mutating func id(ofActor name: String) throws -> Int64 {
        if let id = actorIDs[name] { return id }
        try db.cachedStatement(sql: "INSERT INTO actor (name) VALUES (?) ON CONFLICT (name) DO NOTHING").execute(arguments: [name])
        let id = try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM actor WHERE name = ?"), arguments: [name]) ?? 0
        actorIDs[name] = id
        return id
    }
}
