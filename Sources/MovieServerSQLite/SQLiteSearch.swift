import FTS5Search
import GRDB
import MovieContract
import MovieServer
import MovieServerSQL
import SearchPlanning

/// A search on the SQLite catalogue: the words through the FTS5 table `movie_words` (one row
/// per movie, its folded title words and cast words), the order and the keyset through the
/// `movie` indexes. One to three words are read a relevance at a time (``SearchTiers``).
enum SQLiteSearch {
    static func hits(_ db: Database, _ search: MovieSearch, tierReading: TierReading = .bySize) throws -> [SearchHit] {
        guard !search.matchesNothing else { return [] }
        if search.words.isEmpty, let position = search.after {
            return try listing(db, search, after: position)
        }
        if search.filter.isEmpty, let tiers = SearchTiers(words: search.words, limit: search.limit, positionRelevance: search.after?.relevance, strategy: tierReading) {
            return try SQLiteTieredSearch(db: db, search: search, tiers: tiers).hits()
        }
        return try ranked(db, search)
    }

    /// The page in one statement: every match (every movie, without words) ranked and sorted.
    /// With words, the text index drives the statement (`CROSS JOIN` fixes the order, and the year
    /// is a test of each match): SQLite otherwise walked a year's movies through an index and
    /// asked the text index about each one (0.6 s for a query of a year of a million movies).
    static func ranked(_ db: Database, _ search: MovieSearch) throws -> [SearchHit] {
        var parts = SearchSQL(search: search, contains: { "instr(\($0), \($1)) > 0" }, textCollation: "")
        if !search.words.isEmpty { parts.yearColumn = "+movie.year" }
        let placeholder = { "?" }
        var values: [SearchSQLValue] = []
        let relevance = parts.relevance(placeholder)
        values += parts.relevanceValues.map { .text($0) }
        var sql = "SELECT movie.*, \(relevance) AS relevance FROM "
        sql += search.words.isEmpty ? "movie" : "movie_words CROSS JOIN movie ON movie.id = movie_words.rowid"
        let match: ((String) -> String, SearchSQLValue)? = search.words.isEmpty ? nil : ({ "movie_words MATCH \($0)" }, .text(FTS5Query.allWords(search.words)))
        let (whereClause, bound) = parts.whereClause(match: match, placeholder)
        sql += whereClause
        values += bound
        sql += " ORDER BY \(parts.orderBy) LIMIT ?"
        values.append(.integer(search.limit + 1))
        let rows = try SQLiteCatalogQueries.movies(db, sql: sql, arguments: StatementArguments(values.map(databaseValue)), extra: "relevance")
        return rows.map { SearchHit(movie: $0.movie, relevance: $0.extra) }
    }

    /// A listing page after `position`, as two exact seeks of the (sort value, id) index: the rest
    /// of the position's sort value, then the values after it. SQLite reads the row value
    /// `(value, id) < (?, ?)` as a range of the sort value only, and walked every movie of the
    /// position's value before the page (a rating is shared by thousands of movies in a large
    /// catalogue): page 1,000 cost several times page 1.
    private static func listing(_ db: Database, _ search: MovieSearch, after position: SearchPosition) throws -> [SearchHit] {
        let parts = SearchSQL(search: search, contains: { "instr(\($0), \($1)) > 0" }, textCollation: "")
        let comparison = search.order == .ascending ? ">" : "<"
        var year = search.year.map { (" AND movie.year = ?", [databaseValue(.integer($0))]) } ?? ("", [])
        let filter = parts.filterConditions { "?" }
        year.0 += filter.conditions.map { " AND " + $0 }.joined()
        year.1 += filter.values.map(databaseValue)
        let wanted = search.limit + 1
        let sameValue = try SQLiteCatalogQueries.movies(
            db,
            sql: "SELECT movie.*, 0 AS relevance FROM movie WHERE \(parts.sortColumn) = ?\(year.0) AND movie.id \(comparison) ? ORDER BY movie.id \(parts.direction) LIMIT ?",
            arguments: StatementArguments([databaseValue(.key(position.key))] + year.1 + [position.id, wanted]),
            extra: "relevance"
        )
        var rows = sameValue
        if rows.count < wanted {
            rows += try SQLiteCatalogQueries.movies(
                db,
                sql: "SELECT movie.*, 0 AS relevance FROM movie WHERE \(parts.sortColumn) \(comparison) ?\(year.0) ORDER BY \(parts.orderBy) LIMIT ?",
                arguments: StatementArguments([databaseValue(.key(position.key))] + year.1 + [wanted - rows.count]),
                extra: "relevance"
            )
        }
        return rows.map { SearchHit(movie: $0.movie, relevance: $0.extra) }
    }

    static func databaseValue(_ value: SearchSQLValue) -> any DatabaseValueConvertible {
        switch value {
        case let .integer(number): number
        case let .text(text): text
        case let .key(.integer(number)): number
        case let .key(.number(number)): number
        case let .key(.text(text)): text
        }
    }
}
