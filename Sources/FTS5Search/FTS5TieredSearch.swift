import GRDB
import MovieContract
import SearchPlanning

/// A search of one to three words on one SQLite database (the server's catalogue or the
/// client's store), read a relevance at a time (``SearchTiers``): every match counted up to the
/// sorting limit; when fewer match, ``read()`` says so and the caller ranks them in one statement.
/// Otherwise each relevance is either sorted through the text index (few movies) or met by walking
/// the sort's index in order (many), within a budget of rows, until the page is full.
package struct FTS5TieredSearch {
    /// The order within a relevance: a column of `movie`, then `movie.id`, in one direction.
    package struct Order: Sendable {
        package var column: String
        package var ascending: Bool
        /// The index that holds the order, within the scope and the year when there are.
        package var index: String

        package init(column: String, ascending: Bool, index: String) {
            self.column = column
            self.ascending = ascending
            self.index = index
        }

        var sql: String {
            let direction = ascending ? "ASC" : "DESC"
            return "\(column) \(direction), movie.id \(direction)"
        }
    }

    let db: Database
    let tables: FTS5SearchTables
    let tiers: SearchTiers
    let selection: String
    let scope: SQL?
    let order: Order
    let year: Int?
    let after: (_ relevance: Int) -> SQL?
    /// The budget's last row when no keyset bounds the walk: the same for every relevance.
    private let unboundedBudgetEnd = BudgetEnd()

    /// - Parameters:
    ///   - selection: what is read of each movie found (`movie.id`, `movie.*`).
    ///   - scope: the movies the search may find (the store's: one API's), or `nil` for every one.
    ///   - after: the keyset that continues a page within the relevance given, or `nil`.
    package init(
        db: Database, tables: FTS5SearchTables, tiers: SearchTiers, selection: String, scope: SQL? = nil,
        order: Order, year: Int?, after: @escaping (_ relevance: Int) -> SQL? = { _ in nil }
    ) {
        self.db = db
        self.tables = tables
        self.tiers = tiers
        self.selection = selection
        self.scope = scope
        self.order = order
        self.year = year
        self.after = after
    }

    /// The page (and one movie more) a relevance at a time, or ``FTS5TierReading/fewMatches``.
    package func read() throws -> FTS5TierReading<Row> {
        try tiers.readWithFTS5(
            titleColumn: tables.titleColumn, count: count(_:upTo:),
            sorted: { match, relevance, limit in try sorted(match: match, relevance: relevance, limit: limit) },
            walked: { relevance, limit in try walked(relevance: relevance, limit: limit) },
            titleStarts: TitleStartReading(count: countTitleStarts(relevance:upTo:), sorted: sortedTitleStarts(relevance:limit:))
        )
    }

    /// The condition that the title words are those of `relevance`
    /// (``SearchTiers/titleWordsConditions(_:)``), which the index of the title words reads as a range.
    private func titleStart(_ relevance: Int) -> SQL {
        let titleWords = "movie.\(tables.movieTitleWords)"
        return tiers.titleWordsConditions(relevance).map { condition -> SQL in
            switch condition {
            case let .equal(text): "\(sql: titleWords) = \(text)"
            case let .notEqual(text): "\(sql: titleWords) <> \(text)"
            case let .atLeast(text): "\(sql: titleWords) >= \(text)"
            case let .below(text): "\(sql: titleWords) < \(text)"
            }
        }.joined(separator: " AND ")
    }

    /// How many movies of a title-start relevance there are (in the scope), counting no further than `limit`.
    private func countTitleStarts(relevance: Int, upTo limit: Int) throws -> Int {
        var sql: SQL = "SELECT count(*) FROM (SELECT 1 FROM \(sql: titleWordsSource) WHERE \(titleStart(relevance))"
        if let scope { sql += " AND \(scope)" }
        sql += " LIMIT \(limit))"
        return try Int.fetchOne(db, SQLRequest<Int>(literal: sql, cached: true)) ?? 0
    }

    /// A title-start relevance's movies through the index of the title words, sorted.
    /// The page's keys are chosen first, then their rows read: an index of the title words that
    /// holds the sort's column sorts a range of thousands without reading a row of it.
    private func sortedTitleStarts(relevance: Int, limit: Int) throws -> [Row] {
        let key = "movie.\(tables.movieKey)"
        var sql: SQL = "SELECT \(sql: selection) FROM movie WHERE \(sql: key) IN (SELECT \(sql: key) FROM \(sql: titleWordsSource) WHERE \(titleStart(relevance))"
        sql += conditions(relevance: relevance, yearColumn: "movie.year")
        sql += " ORDER BY \(sql: order.sql) LIMIT \(limit)) ORDER BY \(sql: order.sql)"
        return try fetch(sql)
    }

    private var text: String { tables.text }

    /// The `movie` table, read through the index of the title words when the tables name one.
    private var titleWordsSource: String {
        tables.titleWordsIndex.map { "movie INDEXED BY \($0)" } ?? "movie"
    }

    private func fetch(_ sql: SQL) throws -> [Row] {
        try SQLRequest<Row>(literal: sql, cached: true).fetchAll(db)
    }

    /// How many movies `match` finds (in any scope), counting no further than `limit`.
    private func count(_ match: String, upTo limit: Int) throws -> Int {
        try Int.fetchOne(db, SQLRequest<Int>(literal: "SELECT count(*) FROM (SELECT 1 FROM \(sql: text) WHERE \(sql: text) MATCH \(match) LIMIT \(limit))", cached: true)) ?? 0
    }

    /// The relevance's movies through the text index, sorted. The text index drives the statement
    /// (`CROSS JOIN`, and the year a test of each match, `+movie.year`): SQLite otherwise walked a
    /// year's movies through an index and asked the text index about each one (0.6 to 1.6 s on a
    /// million movies).
    private func sorted(match: String, relevance: Int, limit: Int) throws -> [Row] {
        var sql: SQL = "SELECT \(sql: selection) FROM \(sql: text) CROSS JOIN movie ON movie.\(sql: tables.movieKey) = \(sql: text).rowid"
        sql += " WHERE \(sql: text) MATCH \(match)"
        // The text index finds every title with all the words: those that begin with them are a relevance above.
        if relevance == tiers.words.count { sql += " AND NOT (\(startsWithWords))" }
        sql += conditions(relevance: relevance, yearColumn: "+movie.year")
        sql += " ORDER BY \(sql: order.sql) LIMIT \(limit)"
        return try fetch(sql)
    }

    /// The relevance's movies met by walking the sort's index in order, no further than
    /// ``walkBudget`` rows: each movie passed is tested for the words (its title words, and the
    /// cast words of its text row) and for the relevance. The walk stops at its page or at the
    /// budget's last row, found first by reading the index alone.
    private func walked(relevance: Int, limit: Int) throws -> [Row] {
        let needles = tiers.words.indices.map { SearchText.needle(tiers.words, $0) }
        let titleWords = "movie.\(tables.movieTitleWords)"
        var sql: SQL = "SELECT \(sql: selection) FROM movie INDEXED BY \(sql: order.index)"
        sql += " JOIN \(sql: text) ON \(sql: text).rowid = movie.\(sql: tables.movieKey) WHERE 1 = 1"
        // SQLite tests the terms in this order: the scope's and the year's comparisons before the
        // words' functions, which a walk past many movies would otherwise call for each (35 ms
        // against 13 for a selective filter over 100,000 stored movies).
        sql += conditions(relevance: relevance, yearColumn: "movie.year")
        sql += " AND " + needles.map { needle in
            SQL("(instr(\(sql: titleWords), \(needle)) > 0 OR instr(\(sql: text).\(sql: tables.castColumn), \(needle)) > 0)")
        }.joined(separator: " AND ")
        sql += " AND (\(relevanceExpression)) = \(relevance)"
        if let (key, id) = try lastRowOfBudget(relevance: relevance) {
            sql += " AND (\(sql: order.column), movie.id) \(sql: order.ascending ? "<=" : ">=") (\(key), \(id))"
        }
        sql += " ORDER BY \(sql: order.sql) LIMIT \(limit)"
        return try fetch(sql)
    }

    /// A movie's relevance (``SearchText/relevance(_:titleWords:)``) as SQL: its title's words,
    /// one more when the title begins with them, one more when it begins with them as whole words,
    /// one more again when it is them.
    private var relevanceExpression: SQL {
        let titleWords = "movie.\(tables.movieTitleWords)"
        let inTitle = tiers.words.indices.map { SQL("(instr(\(sql: titleWords), \(SearchText.needle(tiers.words, $0))) > 0)") }
        let whole = SearchText.wholeTitle(tiers.words)
        let startsWithWholeWords = SQL("(substr(\(sql: titleWords), 1, \(whole.unicodeScalars.count)) = \(whole))")
        return (inTitle + [SQL("(\(startsWithWords))"), startsWithWholeWords, SQL("(\(sql: titleWords) = \(whole))")]).joined(separator: " + ")
    }

    /// Whether the title begins with the words.
    private var startsWithWords: SQL {
        let start = SearchText.titleStart(tiers.words)
        return "substr(movie.\(sql: tables.movieTitleWords), 1, \(start.unicodeScalars.count)) = \(start)"
    }

    /// The sort value and id of the last row a walk may read, or `nil` when fewer rows remain.
    private func lastRowOfBudget(relevance: Int) throws -> (DatabaseValue, Int)? {
        guard after(relevance) == nil else { return try readLastRowOfBudget(relevance: relevance) }
        if let known = unboundedBudgetEnd.row { return known }
        let row = try readLastRowOfBudget(relevance: relevance)
        unboundedBudgetEnd.row = .some(row)
        return row
    }

    private func readLastRowOfBudget(relevance: Int) throws -> (DatabaseValue, Int)? {
        var sql: SQL = "SELECT \(sql: order.column), movie.id FROM movie INDEXED BY \(sql: order.index) WHERE 1 = 1"
        sql += conditions(relevance: relevance, yearColumn: "movie.year")
        sql += " ORDER BY \(sql: order.sql) LIMIT 1 OFFSET \(walkBudget - 1)"
        guard let row = try fetch(sql).first else { return nil }
        return (row[0], row[1])
    }

    /// How many rows of the sort's index a walk reads at most: four times what it reads when the
    /// relevance's movies are spread evenly through the order and just many enough to be walked.
    private var walkBudget: Int { 4 * tiers.sortingLimit }

    /// The scope, the year and, in the position's relevance, the keyset after it: each ` AND …`.
    private func conditions(relevance: Int, yearColumn: String) -> SQL {
        var sql: SQL = ""
        if let scope { sql += " AND \(scope)" }
        if let year { sql += " AND \(sql: yearColumn) = \(year)" }
        if let keyset = after(relevance) { sql += " AND \(keyset)" }
        return sql
    }
}

/// A walk's budget end once read, kept for the search's other relevances (one search, one thread).
private final class BudgetEnd {
    var row: (DatabaseValue, Int)??
}
