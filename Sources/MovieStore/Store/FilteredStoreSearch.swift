import FTS5Search
import GRDB
import MovieContract
import Movies

/// A search whose filter lets few of an API's movies through, read in one walk of the page's sort
/// index (``StoredSortIndex``): each movie's filter and title words are tested on the index, the
/// movies the text index finds are kept, ranked as ``MovieSearching/ranked(_:limit:api:in:)`` ranks
/// them, and only the page's rows are read. Read a relevance at a time instead, such a filter made
/// every relevance walk the whole index (30 to 70 ms at 100,000 stored).
struct FilteredStoreSearch {
    /// How many movies of the index's order the estimate tests.
    static let sampleSize = 2_000

    let db: Database
    let request: MovieSearchRequest
    let api: String

    /// Whether fewer than `bound` of the API's `stored` movies likely pass the filter (and year),
    /// estimated from the first ``sampleSize`` in the order of their title words, which no filter follows.
    func passesFew(of stored: Int, bound: Int) throws -> Bool {
        let (conditions, arguments) = self.conditions
        let sample = try Row.fetchOne(db, sql: """
            SELECT count(*), coalesce(sum(1 = 1\(conditions)), 0) FROM (SELECT year, runtimeMinutes, votes, genreBits, rating FROM movie INDEXED BY \(StoredSortIndex.titleWords.name)
            WHERE movie.apiId = \(StoredAPI.idOfKey) LIMIT \(Self.sampleSize)) AS movie
            """, arguments: StatementArguments(arguments + [api]))
        guard let sample, let tested = sample[0] as Int?, tested > 0, let passed = sample[1] as Int? else { return true }
        return passed * stored < bound * tested
    }

    /// The first `limit` matches.
    func rows(limit: Int) throws -> [Row] {
        let words = request.words
        let relevance = MovieSearching.relevance(words)
        let index = StoredSortIndex(request.effectiveSort)
        let (conditions, filterArguments) = self.conditions
        let order = MovieSearching.order(request)
        let sql = """
            SELECT movie.*, \(relevance.sql) AS relevance FROM movie WHERE movie.rowid IN (
                SELECT movie.rowid FROM movie INDEXED BY \(index.name) WHERE movie.apiId = \(StoredAPI.idOfKey)\(conditions)
                AND movie.rowid IN (SELECT rowid FROM movieWords WHERE movieWords MATCH ?)
                ORDER BY \(relevance.sql) DESC, \(order) LIMIT ?)
            ORDER BY relevance DESC, \(order)
            """
        let arguments: [any DatabaseValueConvertible] = relevance.arguments + [api] + filterArguments
            + [FTS5Query.allWords(words)] + relevance.arguments + [limit]
        return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments))
    }

    /// The filter's and the year's conditions, each after ` AND `.
    private var conditions: (sql: String, arguments: [any DatabaseValueConvertible]) {
        var (sql, arguments) = MovieSearching.filterConditions(request.filter)
        if let year = request.year {
            sql += " AND movie.year = ?"
            arguments.append(year)
        }
        return (sql, arguments)
    }
}
