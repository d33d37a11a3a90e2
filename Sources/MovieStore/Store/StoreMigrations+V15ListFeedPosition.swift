import GRDB

extension StoreMigrations {
    /// Schema v15: the live feed's position each known list was read at (`watchlistState`), so
    /// that a feed event the list already holds is known by its position, not guessed by its time.
    static func addListFeedPosition(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE watchlistState ADD COLUMN feedPosition INTEGER")
    }
}
