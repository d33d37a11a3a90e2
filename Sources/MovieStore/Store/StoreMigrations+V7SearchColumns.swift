import FTS5Search
import GRDB
import SearchPlanning

extension StoreMigrations {
    /// Schema v7: a search reads a relevance at a time (``SearchTiers``): the words of each movie
    /// in two columns, its title's and its cast's (`movieWords`, which replaces `movieSearch`, with
    /// prefixes of one to three letters indexed), and each API's movies by grossing, for walking
    /// them in the order of a page. The cast's words are what follows the title's in `allWords`.
    static func splitSearchColumns(_ db: Database) throws {
        try db.execute(sql: FTS5SearchTables.store.creation(splitting: "movieSearch", column: "allWords"))
        try db.execute(sql: "CREATE INDEX movie_on_apiId_grossing ON movie (apiId, grossing, id)")
    }
}
