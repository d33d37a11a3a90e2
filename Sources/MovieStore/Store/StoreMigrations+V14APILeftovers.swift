import GRDB

extension StoreMigrations {
    /// Schema v14: what an API removed before this version left under its id (its live cursor,
    /// removals, change log and shown rows) goes, so that an API given that id does not inherit it.
    static func removeAPILeftovers(_ db: Database) throws {
        for table in StoredAPI.tablesKeyedByID {
            try db.execute(sql: "DELETE FROM \(table) WHERE apiId NOT IN (SELECT id FROM api)")
        }
    }
}
