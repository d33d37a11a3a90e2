import GRDB

extension StoreMigrations {
    /// Schema v2: every movie and list belongs to one API. Rows of v1 name no API, so no API may
    /// answer with them: they are dropped, the file stays.
    static func keyRowsByAPI(_ db: Database) throws {
        for table in ["listEntry", "listSnapshot", "castMember", "movie"] {
            try db.drop(table: table)
        }
        try db.execute(sql: "DELETE FROM actor")
        try db.create(table: "movie") { table in
            table.column("api", .text).notNull()
            table.column("id", .integer).notNull()
            table.column("name", .text).notNull()
            table.column("year", .integer).notNull()
            table.column("releaseDate", .text).notNull()
            table.column("grossing", .integer).notNull()
            table.column("rating", .double).notNull()
            table.column("fetchedAt", .double).notNull()
            table.primaryKey(["api", "id"])
        }
        try db.create(index: "movie_on_api_year", on: "movie", columns: ["api", "year"])
        try db.create(table: "castMember") { table in
            table.column("api", .text).notNull()
            table.column("movieId", .integer).notNull()
            table.column("position", .integer).notNull()
            table.column("actorId", .integer).notNull().references("actor", onDelete: .restrict).indexed()
            table.primaryKey(["api", "movieId", "position"])
            table.foreignKey(["api", "movieId"], references: "movie", columns: ["api", "id"], onDelete: .cascade)
        }
        try db.create(table: "listSnapshot") { table in
            table.column("api", .text).notNull()
            table.column("query", .text).notNull()
            table.column("fetchedAt", .double).notNull()
            table.primaryKey(["api", "query"])
        }
        try db.create(table: "listEntry") { table in
            table.column("api", .text).notNull()
            table.column("query", .text).notNull()
            table.column("position", .integer).notNull()
            table.column("movieId", .integer).notNull()
            table.primaryKey(["api", "query", "position"])
            table.foreignKey(["api", "query"], references: "listSnapshot", columns: ["api", "query"], onDelete: .cascade)
            table.foreignKey(["api", "movieId"], references: "movie", columns: ["api", "id"], onDelete: .restrict)
        }
        try db.create(index: "listEntry_on_api_movieId", on: "listEntry", columns: ["api", "movieId"])
    }
}
