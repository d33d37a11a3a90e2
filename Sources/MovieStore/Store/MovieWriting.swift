import Foundation
import GRDB
import MovieContract
import Movies

/// Writes one API's movies, their casts and list snapshots inside a transaction the caller opened.
///
/// Statements are prepared once per connection and reused, so a large batch costs little more
/// than SQLite's own work.
enum MovieWriting {
    /// Inserts or updates each movie and replaces its cast. Actors are shared by name.
    /// `freshness` is what the server said of a movie asked by id; a movie from a list has none,
    /// so a tag it had from its own answer is dropped with the data it described.
    static func upsert(_ movies: [Movie], api: String, fetchedAt: Date, freshness: Freshness? = nil, in db: Database) throws {
        try upsert(movies, apiID: StoredAPI.id(making: api, in: db), fetchedAt: fetchedAt, freshness: freshness, in: db)
    }

    private static func upsert(_ movies: [Movie], apiID: Int64, fetchedAt: Date, freshness: Freshness?, in db: Database) throws {
        let upsertMovie = try db.cachedStatement(sql: """
            INSERT INTO movie (apiId, id, name, year, releaseDate, grossing, rating, fetchedAt, entityTag, maxAge, titleWords, titleKey, lastUsed,
                imdbId, originalTitle, runtimeMinutes, genres, votes, genreBits)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(apiId, id) DO UPDATE SET name = excluded.name, year = excluded.year, releaseDate = excluded.releaseDate,
                grossing = excluded.grossing, rating = excluded.rating, fetchedAt = excluded.fetchedAt,
                entityTag = excluded.entityTag, maxAge = excluded.maxAge, titleWords = excluded.titleWords, titleKey = excluded.titleKey,
                lastUsed = excluded.lastUsed, imdbId = excluded.imdbId, originalTitle = excluded.originalTitle,
                runtimeMinutes = excluded.runtimeMinutes, genres = excluded.genres, votes = excluded.votes, genreBits = excluded.genreBits
            RETURNING rowid
            """)
        let deleteCast = try db.cachedStatement(sql: "DELETE FROM castMember WHERE apiId = ? AND movieId = ?")
        let insertCast = try db.cachedStatement(sql: "INSERT INTO castMember (apiId, movieId, position, actorId) VALUES (?, ?, ?, ?)")
        var actors = ActorIDs()
        let tick = try UseClock.next(in: db)
        let fetched = fetchedAt.timeIntervalSince1970
        let entityTag = freshness?.entityTag, maxAge = freshness?.maxAge.map { $0 / .seconds(1) }
        // The statements are ours and their arguments always match, so binding skips GRDB's checks.
        for movie in movies {
            let indexed = SearchText.Indexed(title: movie.name, cast: movie.cast.map(\.name))
            upsertMovie.setUncheckedArguments([
                apiID, movie.id, movie.name, movie.year, CalendarDate.string(from: movie.releaseDate), movie.grossing, movie.rating, fetched,
                entityTag, maxAge, indexed.titleWords, indexed.titleKey, tick,
                movie.details?.imdbID, movie.details?.originalTitle, movie.details?.runtimeMinutes, movie.details?.genres?.joined(separator: ","),
                movie.details?.votes, Int64(MovieFilter.genreBits(movie.details?.genres)),
            ])
            guard let rowID = try Int64.fetchOne(upsertMovie) else {
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no row id returned for movie \(movie.id)")
            }
            try index(rowID: rowID, indexed, in: db)
            deleteCast.setUncheckedArguments([apiID, movie.id])
            try deleteCast.execute()
            for (position, actor) in movie.cast.enumerated() {
                insertCast.setUncheckedArguments([apiID, movie.id, position, try actors.id(of: actor.name, in: db)])
                try insertCast.execute()
            }
        }
    }

    /// Makes `indexed` what the movie row `rowID` is found by (FTS5 has no upsert: its row is replaced).
    static func index(rowID: Int64, _ indexed: SearchText.Indexed, in db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM movieWords WHERE rowid = ?").execute(arguments: [rowID])
        try db.cachedStatement(sql: "INSERT INTO movieWords (rowid, titleWords, castWords) VALUES (?, ?, ?)")
            .execute(arguments: [rowID, indexed.titleWords, indexed.castWords])
    }

    /// Makes `movies`, in this order, the stored answer to `query`, replacing the previous one whole.
    static func replaceList(_ query: ListQuery, with movies: [Movie], api: String, fetchedAt: Date, freshness: Freshness, in db: Database) throws {
        let apiID = try StoredAPI.id(making: api, in: db)
        try upsert(movies, apiID: apiID, fetchedAt: fetchedAt, freshness: nil, in: db)
        try db.execute(
            sql: """
                INSERT INTO listSnapshot (apiId, query, fetchedAt, entityTag, maxAge, lastUsed) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT(apiId, query) DO UPDATE SET fetchedAt = excluded.fetchedAt, entityTag = excluded.entityTag, maxAge = excluded.maxAge,
                    lastUsed = excluded.lastUsed
                """,
            arguments: [apiID, query.key, fetchedAt.timeIntervalSince1970, freshness.entityTag, freshness.maxAge.map { $0 / .seconds(1) }, try UseClock.next(in: db)]
        )
        try db.execute(sql: "DELETE FROM listEntry WHERE apiId = ? AND query = ?", arguments: [apiID, query.key])
        let insertEntry = try db.cachedStatement(sql: "INSERT INTO listEntry (apiId, query, position, movieId) VALUES (?, ?, ?, ?)")
        for (position, movie) in movies.enumerated() {
            try insertEntry.execute(arguments: [apiID, query.key, position, movie.id])
        }
    }
}

extension MovieWriting {
    /// Marks the stored answer to `query` whose tag is `entityTag` as current as of `fetchedAt`,
    /// touching no movie. Returns `false` when no such answer is stored (another process replaced
    /// or removed it since it was read).
    static func revalidateList(_ query: ListQuery, api: String, entityTag: String, fetchedAt: Date, freshness: Freshness, in db: Database) throws -> Bool {
        try db.execute(
            sql: "UPDATE listSnapshot SET fetchedAt = ?, entityTag = ?, maxAge = ?, lastUsed = ? WHERE apiId = \(StoredAPI.idOfKey) AND query = ? AND entityTag = ?",
            arguments: [fetchedAt.timeIntervalSince1970, freshness.entityTag ?? entityTag, freshness.maxAge.map { $0 / .seconds(1) }, try UseClock.next(in: db), api, query.key, entityTag]
        )
        return db.changesCount > 0
    }

    /// Marks the stored movie `id` whose tag is `entityTag` as current as of `fetchedAt`.
    static func revalidateMovie(id: Int, api: String, entityTag: String, fetchedAt: Date, freshness: Freshness, in db: Database) throws -> Bool {
        try db.execute(
            sql: "UPDATE movie SET fetchedAt = ?, entityTag = ?, maxAge = ?, lastUsed = ? WHERE apiId = \(StoredAPI.idOfKey) AND id = ? AND entityTag = ?",
            arguments: [fetchedAt.timeIntervalSince1970, freshness.entityTag ?? entityTag, freshness.maxAge.map { $0 / .seconds(1) }, try UseClock.next(in: db), api, id, entityTag]
        )
        return db.changesCount > 0
    }

    /// Removes everything stored for `api` and its row, then the actors no stored movie names any more.
    static func removeAPI(_ api: String, in db: Database) throws {
        try db.execute(sql: "DELETE FROM listSnapshot WHERE apiId = \(StoredAPI.idOfKey)", arguments: [api])
        try db.execute(sql: "DELETE FROM movieWords WHERE rowid IN (SELECT rowid FROM movie WHERE apiId = \(StoredAPI.idOfKey))", arguments: [api])
        try db.execute(sql: "DELETE FROM movie WHERE apiId = \(StoredAPI.idOfKey)", arguments: [api])
        // The watchlist and the shelf are not a cache: their changes and last known state stay, and with them the API's row.
        if let id = try Int64.fetchOne(db, sql: """
            SELECT id FROM api WHERE key = ? AND id NOT IN (
                SELECT apiId FROM watchlistOutbox UNION SELECT apiId FROM watchlistEntry UNION SELECT apiId FROM watchlistState
                UNION SELECT apiId FROM shelfOutbox UNION SELECT apiId FROM shelfRecord)
            """, arguments: [api]) {
            // An API added later may be given the same id: it inherits nothing.
            for table in StoredAPI.tablesKeyedByID {
                try db.execute(sql: "DELETE FROM \(table) WHERE apiId = ?", arguments: [id])
            }
            try db.execute(sql: "DELETE FROM api WHERE id = ?", arguments: [id])
        }
        try db.execute(sql: "DELETE FROM actor WHERE id NOT IN (SELECT actorId FROM castMember)")
    }
}

/// Actor ids by name, looked up or created once per batch.
private struct ActorIDs {
    private var known: [String: Int64] = [:]

    mutating func id(of name: String, in db: Database) throws -> Int64 {
        if let id = known[name] { return id }
        let statement = try db.cachedStatement(sql: """
            INSERT INTO actor (name) VALUES (?) ON CONFLICT(name) DO UPDATE SET name = excluded.name RETURNING id
            """)
        guard let id = try Int64.fetchOne(statement, arguments: [name]) else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no id returned for actor \(name)")
        }
        known[name] = id
        return id
    }
}
