import GRDB
import Movies

/// A first page of one to three words by grossing, read from the store a relevance at a time
/// (``SearchTiers``), as the server's SQLite catalogue reads it.
struct TieredStoreSearch {
    let db: Database
    let request: MovieSearchRequest
    let tiers: SearchTiers
    let api: String

    func rows() throws -> [Row] {
        let words = tiers.words
        let total = try count(SearchText.fts5Query(words), upTo: tiers.sortingLimit)
        guard total > 0 else { return [] }
        let limit = tiers.limit + 1
        if total < tiers.sortingLimit, tiers.strategy == .bySize {
            return try MovieSearching.ranked(request, limit: limit, api: api, in: db)
        }
        let inSomeTitle = try words.indices.filter { index in
            try count(tiers.fts5Query(wordInTitle: index, titleColumn: "titleWords"), upTo: 1) > 0
        }.count
        var found: [Row] = []
        for relevance in tiers.relevances(wordsInSomeTitle: inSomeTitle) where found.count < limit {
            let match = tiers.fts5Query(relevance: relevance, wordsInSomeTitle: inSomeTitle, titleColumn: "titleWords")
            let count = relevance == 0 && inSomeTitle == 0 ? total : try count(match, upTo: tiers.sortingLimit)
            guard count > 0 else { continue }
            let rows = switch tiers.reading(count: count) {
            case .sortingMatches: try sorted(match: match, limit: limit - found.count)
            case .walkingIndex: try walked(relevance: relevance, limit: limit - found.count)
            }
            found += rows
        }
        return found
    }

    /// How many movies of any API `match` finds, counting no further than `limit`.
    private func count(_ match: String, upTo limit: Int) throws -> Int {
        try Int.fetchOne(
            db.cachedStatement(sql: "SELECT count(*) FROM (SELECT 1 FROM movieWords WHERE movieWords MATCH ? LIMIT ?)"),
            arguments: [match, limit]
        ) ?? 0
    }

    /// The relevance's movies through the text index, sorted.
    private func sorted(match: String, limit: Int) throws -> [Row] {
        var arguments: [any DatabaseValueConvertible] = [match, api]
        var sql = "SELECT movie.* FROM movieWords JOIN movie ON movie.rowid = movieWords.rowid"
        sql += " WHERE movieWords MATCH ? AND movie.apiId = \(StoredAPI.idOfKey)"
        sql += narrowing(&arguments)
        sql += " ORDER BY \(MovieSearching.order(request)) LIMIT ?"
        arguments.append(limit)
        return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: StatementArguments(arguments))
    }

    /// The relevance's movies met by walking the API's movies by grossing, each tested for the
    /// words (title words in its row, cast words in `movieWords`) and for the relevance.
    private func walked(relevance: Int, limit: Int) throws -> [Row] {
        let needles = tiers.words.indices.map { SearchText.needle(tiers.words, $0) }
        var arguments: [any DatabaseValueConvertible] = [api]
        var sql = "SELECT movie.* FROM movie INDEXED BY movie_on_apiId_grossing JOIN movieWords ON movieWords.rowid = movie.rowid"
        sql += " WHERE movie.apiId = \(StoredAPI.idOfKey)"
        for needle in needles {
            sql += " AND (instr(movie.titleWords, ?) > 0 OR instr(movieWords.castWords, ?) > 0)"
            arguments += [needle, needle]
        }
        sql += " AND (" + needles.map { _ in "(instr(movie.titleWords, ?) > 0)" }.joined(separator: " + ") + ") = ?"
        arguments += needles
        arguments.append(relevance)
        sql += narrowing(&arguments)
        sql += " ORDER BY \(MovieSearching.order(request)) LIMIT ?"
        arguments.append(limit)
        return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: StatementArguments(arguments))
    }

    private func narrowing(_ arguments: inout [any DatabaseValueConvertible]) -> String {
        guard let year = request.year else { return "" }
        arguments.append(year)
        return " AND movie.year = ?"
    }
}
