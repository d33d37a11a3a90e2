import GRDB
import MovieContract
import MovieServer

/// What the SQLite catalogue gives the in-process search index: every movie's entry, with the
/// catalogue version, read in one transaction so that they agree.
enum SQLiteSearchEntries {
    static func read(_ db: Database) throws -> (version: Int64, entries: SearchEntries) {
        let version = try version(db)
        var entries = SearchEntries()
        entries.reserveCapacity(try Int.fetchOne(db, sql: "SELECT count(*) FROM movie") ?? 0)
        let rows = try Row.fetchCursor(db, sql: """
            SELECT movie.id, movie.year, movie.grossing, movie.rating, movie.release_date, movie.title_key, movie.title_words,
                   movie.title_words || movie_words.cast_words, coalesce(movie.runtime_minutes, 0), coalesce(movie.votes, -1), movie.genres
            FROM movie JOIN movie_words ON movie_words.rowid = movie.id
            """)
        while let row = try rows.next() {
            entries.append(SearchEntry(
                id: row[0], year: row[1], grossing: row[2], rating: row[3], releaseDate: row[4],
                titleKey: row[5], titleWords: row[6], allWords: row[7],
                runtime: row[8], votes: row[9], genres: MovieFilter.genreBits((row[10] as String?)?.split(separator: ",").map(String.init))
            ))
        }
        return (version, entries)
    }

    static func version(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT version FROM catalog_state") ?? 0
    }
}
