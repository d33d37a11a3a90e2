import GRDB

extension StoreMigrations {
    /// Schema v4: each API's identity is stored once, in `api`, and every row names it by an
    /// integer. Since v2 each movie, cast member and list entry repeated the API's text (and its
    /// key indexes with it), which made a store file twice the size it needs and every write
    /// compare long strings. The rows are kept: copied into the new tables.
    ///
    /// The tables stay rowid tables: `WITHOUT ROWID` would merge each with its key index and save
    /// about a fifth more, but SQLite's update hook, which tells GRDB's observations of changes,
    /// says nothing of changes to such tables.
    static func keyRowsByAPIIdentifier(_ db: Database) throws {
        try db.create(table: "api") { table in
            table.primaryKey("id", .integer)
            table.column("key", .text).notNull().unique()
        }
        try db.execute(sql: "INSERT INTO api (key) SELECT api FROM movie UNION SELECT api FROM listSnapshot ORDER BY 1")

        try db.create(table: "movie_v4") { table in
            table.column("apiId", .integer).notNull().references("api")
            table.column("id", .integer).notNull()
            table.column("name", .text).notNull()
            table.column("year", .integer).notNull()
            table.column("releaseDate", .text).notNull()
            table.column("grossing", .integer).notNull()
            table.column("rating", .double).notNull()
            table.column("fetchedAt", .double).notNull()
            table.column("entityTag", .text)
            table.column("maxAge", .double)
            table.primaryKey(["apiId", "id"])
        }
        try db.create(table: "castMember_v4") { table in
            table.column("apiId", .integer).notNull()
            table.column("movieId", .integer).notNull()
            table.column("position", .integer).notNull()
            table.column("actorId", .integer).notNull().references("actor", onDelete: .restrict)
            table.primaryKey(["apiId", "movieId", "position"])
            table.foreignKey(["apiId", "movieId"], references: "movie_v4", columns: ["apiId", "id"], onDelete: .cascade)
        }
        try db.create(table: "listSnapshot_v4") { table in
            table.column("apiId", .integer).notNull().references("api")
            table.column("query", .text).notNull()
            table.column("fetchedAt", .double).notNull()
            table.column("entityTag", .text)
            table.column("maxAge", .double)
            table.primaryKey(["apiId", "query"])
        }
        try db.create(table: "listEntry_v4") { table in
            table.column("apiId", .integer).notNull()
            table.column("query", .text).notNull()
            table.column("position", .integer).notNull()
            table.column("movieId", .integer).notNull()
            table.primaryKey(["apiId", "query", "position"])
            table.foreignKey(["apiId", "query"], references: "listSnapshot_v4", columns: ["apiId", "query"], onDelete: .cascade)
            table.foreignKey(["apiId", "movieId"], references: "movie_v4", columns: ["apiId", "id"], onDelete: .restrict)
        }

        try db.execute(sql: """
            INSERT INTO movie_v4 (apiId, id, name, year, releaseDate, grossing, rating, fetchedAt, entityTag, maxAge)
                SELECT api.id, movie.id, name, year, releaseDate, grossing, rating, fetchedAt, entityTag, maxAge
                FROM movie JOIN api ON api.key = movie.api;
            INSERT INTO castMember_v4 (apiId, movieId, position, actorId)
                SELECT api.id, movieId, position, actorId FROM castMember JOIN api ON api.key = castMember.api;
            INSERT INTO listSnapshot_v4 (apiId, query, fetchedAt, entityTag, maxAge)
                SELECT api.id, query, fetchedAt, entityTag, maxAge FROM listSnapshot JOIN api ON api.key = listSnapshot.api;
            INSERT INTO listEntry_v4 (apiId, query, position, movieId)
                SELECT api.id, query, position, movieId FROM listEntry JOIN api ON api.key = listEntry.api;
            """)
        for table in ["listEntry", "listSnapshot", "castMember", "movie"] {
            try db.drop(table: table)
        }
        for table in ["movie", "castMember", "listSnapshot", "listEntry"] {
            try db.rename(table: "\(table)_v4", to: table)
        }
        try db.create(index: "movie_on_apiId_year", on: "movie", columns: ["apiId", "year"])
        try db.create(index: "castMember_on_actorId", on: "castMember", columns: ["actorId"])
        try db.create(index: "listEntry_on_apiId_movieId", on: "listEntry", columns: ["apiId", "movieId"])
    }
}
