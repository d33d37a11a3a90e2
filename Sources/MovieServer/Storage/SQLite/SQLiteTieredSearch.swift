import GRDB
import Movies

/// A search of one to three words on the SQLite catalogue (``SearchTiers``): few matches are
/// ranked in one statement; many are read a relevance at a time, each relevance's movies counted
/// through `movie_words` up to the sorting limit, then either sorted (few) or met by walking the
/// sort's index in order (many), until the page is full.
struct SQLiteTieredSearch {
    let db: Database
    let search: MovieSearch
    let tiers: SearchTiers

    private var parts: SearchSQL { SearchSQL(search: search, contains: { "instr(\($0), \($1)) > 0" }, textCollation: "") }

    func hits() throws -> [SearchHit] {
        let reading = try tiers.readWithFTS5(
            titleColumn: "title_words", count: count(_:upTo:),
            sorted: { match, relevance, limit in try sorted(match: match, relevance: relevance, limit: limit) },
            walked: { relevance, limit in try walked(relevance: relevance, limit: limit) }
        )
        switch reading {
        case .nothing:
            return []
        case .fewMatches:
            return try SQLiteSearch.ranked(db, search)
        case let .byRelevance(found):
            let movies = try SQLiteCatalogQueries.movies(db, ids: found.map(\.item))
            return found.compactMap { id, relevance in movies[id].map { SearchHit(movie: $0, relevance: relevance) } }
        }
    }

    /// How many movies `match` finds, counting no further than `limit`.
    private func count(_ match: String, upTo limit: Int) throws -> Int {
        try Int.fetchOne(
            db.cachedStatement(sql: "SELECT count(*) FROM (SELECT 1 FROM movie_words WHERE movie_words MATCH ? LIMIT ?)"),
            arguments: [match, limit]
        ) ?? 0
    }

    /// The relevance's movies through the text index, sorted. The text index drives the statement
    /// (`CROSS JOIN`, and the year a test of each match, `+movie.year`): SQLite otherwise walked a
    /// year's movies through an index and asked the text index about each one (0.6 to 1.6 s on a
    /// million movies).
    private func sorted(match: String, relevance: Int, limit: Int) throws -> [Int] {
        var sql = "SELECT movie.id FROM movie_words CROSS JOIN movie ON movie.id = movie_words.rowid WHERE movie_words MATCH ?"
        var values: [any DatabaseValueConvertible] = [match]
        sql += try narrowing(relevance: relevance, yearColumn: "+movie.year", &values)
        sql += " ORDER BY \(parts.sortOrder) LIMIT ?"
        values.append(limit)
        return try Int.fetchAll(db.cachedStatement(sql: sql), arguments: StatementArguments(values))
    }

    /// The relevance's movies met by walking the sort's index in order, no further than
    /// ``walkBudget`` rows: each movie passed is tested for the words (in its title words and
    /// `movie_words`' cast words) and for the relevance. The walk stops at its page or at the
    /// budget's last row, found first by reading the index alone.
    private func walked(relevance: Int, limit: Int) throws -> [Int] {
        var values: [any DatabaseValueConvertible] = []
        let matches = parts.needles.map { needle in
            values += [needle, needle]
            return "(instr(movie.title_words, ?) > 0 OR instr(movie_words.cast_words, ?) > 0)"
        }
        let inTitle = parts.relevance { "?" }
        values += parts.needles
        var sql = "SELECT movie.id FROM movie INDEXED BY \(index) JOIN movie_words ON movie_words.rowid = movie.id"
        sql += " WHERE " + matches.joined(separator: " AND ") + " AND (\(inTitle)) = ?"
        values.append(relevance)
        sql += try narrowing(relevance: relevance, &values)
        if let (key, id) = try lastRowOfBudget(relevance: relevance) {
            sql += " AND (\(parts.sortColumn), movie.id) \(search.order == .ascending ? "<=" : ">=") (?, ?)"
            values += [key, id]
        }
        sql += " ORDER BY \(parts.sortOrder) LIMIT ?"
        values.append(limit)
        return try Int.fetchAll(db.cachedStatement(sql: sql), arguments: StatementArguments(values))
    }

    /// The sort value and id of the last row a walk may read, or `nil` when fewer rows remain.
    private func lastRowOfBudget(relevance: Int) throws -> (DatabaseValue, Int)? {
        var values: [any DatabaseValueConvertible] = []
        let narrowing = try narrowing(relevance: relevance, &values)
        values.append(walkBudget - 1)
        let sql = "SELECT \(parts.sortColumn), movie.id FROM movie INDEXED BY \(index) WHERE 1 = 1\(narrowing)"
            + " ORDER BY \(parts.sortOrder) LIMIT 1 OFFSET ?"
        guard let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: StatementArguments(values)) else { return nil }
        return (row[0], row[1])
    }

    /// How many rows of the sort's index a walk reads at most: four times what it reads when the
    /// relevance's movies are spread evenly through the order and just many enough to be walked.
    private var walkBudget: Int { 4 * tiers.sortingLimit }

    /// The year and, in the position's relevance, the keyset after it.
    private func narrowing(relevance: Int, yearColumn: String = "movie.year", _ values: inout [any DatabaseValueConvertible]) throws -> String {
        var sql = ""
        if let year = search.year {
            sql += " AND \(yearColumn) = ?"
            values.append(year)
        }
        if let position = search.after, position.relevance == relevance {
            let (keyset, bound) = parts.keyset(after: position) { "?" }
            sql += " AND " + keyset
            values += bound.map(SQLiteSearch.databaseValue)
        }
        return sql
    }

    /// The index that holds the sort's order (within the year, when there is one).
    private var index: String {
        switch (search.sort, search.year != nil) {
        case (.relevance, false), (.grossing, false): "movie_grossing"
        case (.relevance, true), (.grossing, true): "movie_top_grossing"
        case (.rating, false): "movie_rating"
        case (.rating, true): "movie_top_rated"
        case (.released, false): "movie_released"
        case (.released, true): "movie_year_released"
        case (.title, false): "movie_title"
        case (.title, true): "movie_year_title"
        }
    }
}
