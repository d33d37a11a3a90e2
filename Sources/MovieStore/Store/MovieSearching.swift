import GRDB
import Movies

/// Searches one API's stored movies by the server's rules (``SearchText``): every word but the
/// last one of the movie's words, the last the start of one; more words in the title first;
/// then the request's sort and the id. The words go through the FTS5 table `movieSearch`.
enum MovieSearching {
    /// The first `limit` matches (all of them when `limit` is `nil`), and how many movies of the API are stored.
    static func search(_ request: MovieSearchRequest, limit: Int?, api: String, in db: Database) throws -> (movies: [Movie], searched: Int) {
        let searched = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM movie WHERE apiId = \(StoredAPI.idOfKey)", arguments: [api]) ?? 0
        let words = request.words
        if request.text != nil, words.isEmpty { return ([], searched) }
        var arguments: [any DatabaseValueConvertible] = []
        let relevance = words.isEmpty ? "0" : words.indices.map { _ in "(instr(movie.titleWords, ?) > 0)" }.joined(separator: " + ")
        arguments += words.indices.map { SearchText.needle(words, $0) }
        var sql = "SELECT movie.*, \(relevance) AS relevance FROM movie"
        if !words.isEmpty { sql += " JOIN movieSearch ON movieSearch.rowid = movie.rowid" }
        sql += " WHERE movie.apiId = \(StoredAPI.idOfKey)"
        arguments.append(api)
        if !words.isEmpty {
            sql += " AND movieSearch MATCH ?"
            arguments.append(SearchText.fts5Query(words))
        }
        if let year = request.year {
            sql += " AND movie.year = ?"
            arguments.append(year)
        }
        let column = switch request.effectiveSort {
        case .relevance, .grossing: "movie.grossing"
        case .rating: "movie.rating"
        case .released: "movie.releaseDate"
        case .title: "movie.titleKey"
        }
        let direction = request.effectiveOrder == .ascending ? "ASC" : "DESC"
        sql += " ORDER BY " + (words.isEmpty ? "" : "relevance DESC, ") + "\(column) \(direction), movie.id \(direction)"
        if let limit {
            sql += " LIMIT ?"
            arguments.append(limit)
        }
        let rows = try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments))
        let casts = try MovieReading.casts(of: rows.map { $0["id"] }, api: api, in: db)
        return (try rows.map { row in try MovieReading.movie(from: row, cast: casts[row["id"]] ?? []) }, searched)
    }
}
