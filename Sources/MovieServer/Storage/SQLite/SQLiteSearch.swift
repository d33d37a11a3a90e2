import Movies
import GRDB

/// A search on the SQLite catalogue: the words through the FTS5 table `movie_search` (one row
/// per movie, its folded words), the order and the keyset through the `movie` indexes.
enum SQLiteSearch {
    static func hits(_ db: Database, _ search: MovieSearch) throws -> [SearchHit] {
        guard !search.matchesNothing else { return [] }
        let parts = SearchSQL(search: search, contains: { "instr(\($0), \($1)) > 0" }, textCollation: "")
        let placeholder = { "?" }
        var values: [SearchSQLValue] = []
        let relevance = parts.relevance(placeholder)
        values += parts.needles.map { .text($0) }
        var sql = "SELECT movie.*, \(relevance) AS relevance FROM movie"
        if !search.words.isEmpty { sql += " JOIN movie_search ON movie_search.rowid = movie.id" }
        let match: ((String) -> String, SearchSQLValue)? = search.words.isEmpty ? nil : ({ "movie_search MATCH \($0)" }, .text(SearchText.fts5Query(search.words)))
        let (whereClause, bound) = parts.whereClause(match: match, placeholder)
        sql += whereClause
        values += bound
        sql += " ORDER BY \(parts.orderBy) LIMIT ?"
        values.append(.integer(search.limit + 1))
        let rows = try SQLiteCatalogQueries.movies(db, sql: sql, arguments: StatementArguments(values.map(databaseValue)), extra: "relevance")
        return rows.map { SearchHit(movie: $0.movie, relevance: $0.extra) }
    }

    private static func databaseValue(_ value: SearchSQLValue) -> any DatabaseValueConvertible {
        switch value {
        case let .integer(number): number
        case let .text(text): text
        case let .key(.integer(number)): number
        case let .key(.number(number)): number
        case let .key(.text(text)): text
        }
    }
}
