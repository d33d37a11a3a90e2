import GRDB

/// The store's schema, as named migration steps. A step, once shipped, never changes: a new
/// need is a new step.
enum StoreMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration(firstStep) { db in
            try db.create(table: "movie") { table in
                table.primaryKey("id", .integer)
                table.column("name", .text).notNull()
                table.column("year", .integer).notNull()
                table.column("releaseDate", .text).notNull()
                table.column("grossing", .integer).notNull()
                table.column("rating", .double).notNull()
                table.column("fetchedAt", .double).notNull()
            }
            try db.create(table: "actor") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("name", .text).notNull().unique()
            }
            try db.create(table: "castMember") { table in
                table.column("movieId", .integer).notNull().references("movie", onDelete: .cascade)
                table.column("position", .integer).notNull()
                table.column("actorId", .integer).notNull().references("actor", onDelete: .restrict).indexed()
                table.primaryKey(["movieId", "position"])
            }
            try db.create(table: "listSnapshot") { table in
                table.primaryKey("query", .text)
                table.column("fetchedAt", .double).notNull()
            }
            try db.create(table: "listEntry") { table in
                table.column("query", .text).notNull().references("listSnapshot", onDelete: .cascade)
                table.column("position", .integer).notNull()
                table.column("movieId", .integer).notNull().references("movie", onDelete: .restrict).indexed()
                table.primaryKey(["query", "position"])
            }
        }
        migrator.registerMigration("v2: every movie and list belongs to one API") { db in
            // Rows of v1 name no API, so no API may answer with them: they are dropped, the file stays.
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
        migrator.registerMigration("v3: each answer's entity tag and max-age") { db in
            for table in ["movie", "listSnapshot"] {
                try db.alter(table: table) { table in
                    table.add(column: "entityTag", .text)
                    table.add(column: "maxAge", .double)
                }
            }
        }
        migrator.registerMigration("v4: each API named once, rows keyed by its integer id", migrate: keyRowsByAPIIdentifier)
        return migrator
    }

    /// The identifier of the first step, which every store has taken: how a file is recognised as one.
    static let firstStep = "v1: movies, shared actors, cast in billing order, list snapshots"
}
