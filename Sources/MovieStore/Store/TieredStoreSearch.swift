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
        let reading = try tiers.readWithFTS5(
            titleColumn: "titleWords", count: count(_:upTo:),
            sorted: { match, _, limit in try sorted(match: match, limit: limit) },
            walked: { relevance, limit in try walked(relevance: relevance, limit: limit) }
        )
        switch reading {
        case .nothing: return []
        case .fewMatches: return try MovieSearching.ranked(request, limit: tiers.limit + 1, api: api, in: db)
        case let .byRelevance(found): return found.map(\.item)
        }
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
