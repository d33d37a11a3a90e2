import FTS5Search
import GRDB
import MovieContract
import SearchPlanning

/// The words of one API's stored movies, for "did you mean" offline (`DidYouMean`, the server's
/// rule): whether a word is known, and how many movies a search finds, read through the FTS5 table
/// `movieWords` for the API's movies; the candidates from its vocabulary (an `fts5vocab` table of
/// this connection), which holds every API's words with how many movies hold each.
struct StoreVocabulary: SpellingVocabulary {
    let db: Database
    let api: String

    func isKnown(_ word: String, asPrefix: Bool) throws -> Bool {
        try matches("\"\(word)\"" + (asPrefix ? " *" : ""), year: nil, limit: 1) > 0
    }

    func isTitleWord(_ word: String) throws -> Bool {
        try matches("{\(FTS5SearchTables.store.titleColumn)} : \"\(word)\"", year: nil, limit: 1) > 0
    }

    func count(_ words: [String], year: Int?) throws -> Int {
        try matches(FTS5Query.allWords(words), year: year, limit: nil)
    }

    func candidates(for word: String) throws -> [SpellingCandidate] {
        try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.movieVocabulary USING fts5vocab(main, \(FTS5SearchTables.store.text), row)")
        var found = SpellingCandidates(for: word)
        let length = found.typed.count
        let rows = try Row.fetchCursor(
            db, sql: "SELECT term, doc FROM temp.movieVocabulary WHERE length(term) BETWEEN ? AND ?",
            arguments: [length - found.edits, length + found.edits]
        )
        while let row = try rows.next() { found.consider(row[0], movies: row[1]) }
        return found.best
    }

    /// How many of the API's movies (of `year`) match the FTS5 query `match`, counting up to `limit`.
    private func matches(_ match: String, year: Int?, limit: Int?) throws -> Int {
        var sql = """
            SELECT COUNT(*) FROM (SELECT 1 FROM movie JOIN \(FTS5SearchTables.store.text) ON \(FTS5SearchTables.store.text).rowid = movie.rowid
            WHERE movie.apiId = \(StoredAPI.idOfKey) AND \(FTS5SearchTables.store.text) MATCH ?
            """
        var arguments: [any DatabaseValueConvertible] = [api, match]
        if let year {
            sql += " AND movie.year = ?"
            arguments.append(year)
        }
        if let limit {
            sql += " LIMIT ?"
            arguments.append(limit)
        }
        return try Int.fetchOne(db, sql: sql + ")", arguments: StatementArguments(arguments)) ?? 0
    }
}
