import GRDB

extension StoreMigrations {
    /// Schema v3: each answer's entity tag and max-age, to revalidate it.
    static func addValidators(_ db: Database) throws {
        for table in ["movie", "listSnapshot"] {
            try db.alter(table: table) { table in
                table.add(column: "entityTag", .text)
                table.add(column: "maxAge", .double)
            }
        }
    }
}
