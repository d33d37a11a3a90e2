import GRDB
import MovieServer

extension SQLiteSchema {
    /// The indexes of search's orders (made by `server-v2-search`) and of the title words. A first import of many movies
    /// drops them and makes them again at its end, in the same transaction: SQLite builds an index
    /// from sorted rows in a fraction of the time it takes to put a million movies into it one at a
    /// time (six indexes: about 4 s against 11 s for a million).
    enum OrderIndexes {
        /// How many movies a first import must bring for the indexes to be made again at its end.
        static let bulkImport = 50_000

        static let definitions = [
            "CREATE INDEX movie_year_released ON movie (year, release_date, id)",
            "CREATE INDEX movie_year_title ON movie (year, title_key, id)",
            "CREATE INDEX movie_grossing ON movie (grossing, id)",
            "CREATE INDEX movie_rating ON movie (rating, id)",
            "CREATE INDEX movie_released ON movie (release_date, id)",
            "CREATE INDEX movie_title ON movie (title_key, id)",
            titleWords,
        ]

        /// The index of the title words (`server-v10-title-words`): the titles that begin with a
        /// search's words are one range of it.
        static let titleWords = "CREATE INDEX movie_title_words ON movie (title_words)"

        /// Drops the indexes when `count` movies go into an empty catalogue and they are many;
        /// returns the definitions of those it dropped, which ``create(_:in:)`` must make again
        /// before the transaction commits.
        static func dropForBulkImport(of count: Int, in db: Database) throws -> [String] {
            guard count >= bulkImport, try !Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM movie)")! else { return [] }
            let existing = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'"))
            let dropped = definitions.filter { existing.contains(name(of: $0)) }
            for definition in dropped { try db.execute(sql: "DROP INDEX \(name(of: definition))") }
            return dropped
        }

        static func create(_ definitions: [String], in db: Database) throws {
            for definition in definitions { try db.execute(sql: definition) }
        }

        private static func name(of definition: String) -> String {
            String(definition.split(separator: " ")[2])
        }
    }
}
