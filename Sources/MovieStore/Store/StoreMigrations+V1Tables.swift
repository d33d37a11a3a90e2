import GRDB

extension StoreMigrations {
    /// Schema v1: movies, actors shared by name, each cast in billing order, and each list's
    /// last answer as entries in order.
    static func createTables(_ db: Database) throws {
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
}
