import GRDB

/// The `api` table: each API's key stored once, and named by its integer id in every other row.
enum StoredAPI {
    /// SQL for the id of the API whose key is the next `?` argument; `NULL`, which no row
    /// matches, when that API has nothing stored.
    static let idOfKey = "(SELECT id FROM api WHERE key = ?)"

    /// The tables that hold an API's id without a foreign key: whatever they hold of an API goes
    /// with its row, so that an API given the same id later starts with none of it.
    static let tablesKeyedByID = ["liveCursor", "watchlistRemoval", "watchlistChangeLog", "shownMovie", "shownList"]

    /// The id of the API named `key`, or `nil` when nothing was ever stored for it.
    static func id(of key: String, in db: Database) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM api WHERE key = ?"), arguments: [key])
    }

    /// The id of the API named `key`, added when it has none yet.
    static func id(making key: String, in db: Database) throws -> Int64 {
        if let id = try id(of: key, in: db) { return id }
        try db.cachedStatement(sql: "INSERT INTO api (key) VALUES (?)").execute(arguments: [key])
        return db.lastInsertedRowID
    }
}
