import MovieContract
/// The tables a search reads on one SQLite database: the `movie` table and, beside it, an FTS5
/// table with one row per movie (its rowid the movie's key) holding the title's words and the
/// cast's in two columns. The server's catalogue and the client's store name them in their own
/// styles (``catalogue``, ``store``); the table is the same.
public struct FTS5SearchTables: Sendable {
    /// The FTS5 table.
    public var text: String
    /// Its column of the title's words, which a relevance counts.
    public var titleColumn: String
    /// Its column of the cast's words.
    public var castColumn: String
    /// The `movie` table's column of the title's words (` finding dory `).
    public var movieTitleWords: String
    /// The `movie` table's column that is the FTS5 table's rowid.
    public var movieKey: String
    /// The index a range of title words is read through, when SQLite must be told (the store's
    /// indexes of sorts also hold the title words, and a filter's columns drew it to them).
    public var titleWordsIndex: String? = nil

    /// The server's catalogue: `movie_words`, keyed by the movie's id.
    public static let catalogue = FTS5SearchTables(
        text: "movie_words", titleColumn: "title_words", castColumn: "cast_words", movieTitleWords: "title_words", movieKey: "id"
    )
    /// The client's store: `movieWords`, keyed by the movie row (a movie is stored once per API).
    public static let store = FTS5SearchTables(
        text: "movieWords", titleColumn: "titleWords", castColumn: "castWords", movieTitleWords: "titleWords", movieKey: "rowid",
        titleWordsIndex: "movie_by_titleWords"
    )

    /// The statement that creates the FTS5 table: words as ``SearchText`` folds them (diacritics
    /// are already gone), and prefixes of one to three letters indexed, so that "e" as typed does
    /// not merge the lists of every word that starts with it.
    public var creation: String {
        "CREATE VIRTUAL TABLE \(text) USING fts5(\(titleColumn), \(castColumn), tokenize = 'unicode61 remove_diacritics 0', prefix = '1 2 3')"
    }

    /// The statements that make this table from an older one-column FTS5 table `table`, whose
    /// `column` held a movie's title words then its cast words, and drop the old one: the cast's
    /// words are what follows the title's (all of it, for a title without words).
    public func creation(splitting table: String, column: String) -> String {
        let titleWords = "movie.\(movieTitleWords)"
        return creation + """
            ;
            INSERT INTO \(text) (rowid, \(titleColumn), \(castColumn))
                SELECT movie.\(movieKey), \(titleWords),
                    CASE WHEN trim(\(titleWords)) = '' THEN \(table).\(column)
                         ELSE ' ' || substr(\(table).\(column), length(\(titleWords)) + 1) END
                FROM movie JOIN \(table) ON \(table).rowid = movie.\(movieKey);
            DROP TABLE \(table);
            """
    }
}
