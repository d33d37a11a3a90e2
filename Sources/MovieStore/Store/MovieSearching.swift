import FTS5Search
import GRDB
import MovieContract
import Movies
import SearchPlanning

/// Searches one API's stored movies by the server's rules (``SearchText``): every word but the
/// last one of the movie's words, the last the start of one; the whole title first, then titles
/// that begin with the words, then more words in the title;
/// then the request's sort and the id. The words go through the FTS5 table `movieWords`.
///
/// A filtered page is read from the API's facets in memory (``FacetSearch``), but for words with a
/// broad filter. A first page of one to three words is read as the server reads it (``SearchTiers``): few
/// matches ranked in one statement; many a relevance at a time, sorted when the relevance holds few
/// movies, met by walking the API's movies in the page's order (``StoredSortIndex``) when it holds
/// many. A page without words walks that index alone.
/// The text index holds every API's movies, so its counts only choose the way; the rows are the API's.
enum MovieSearching {
    /// The first `limit` matches (all of them when `limit` is `nil`), and how many movies of the API are stored.
    static func search(
        _ request: MovieSearchRequest, limit: Int?, api: String, in db: Database, facets: StoredFacetsCache? = nil, tierReading: TierReading = .bySize
    ) throws -> (movies: [Movie], searched: Int) {
        let searched = try Int.fetchOne(db, sql: "SELECT count FROM storedMovieCount WHERE apiId = \(StoredAPI.idOfKey)", arguments: [api]) ?? 0
        let words = request.words
        if request.text != nil, words.isEmpty { return ([], searched) }
        let rows: [Row]
        if let limit, !request.filter.isEmpty, let facets = try facets?.facets(api: api, in: db),
           let page = FacetSearch(facets: facets, request: request).rowIDs(limit: limit) {
            rows = try rowsInOrder(page, in: db)
        } else if let limit, let tiers = SearchTiers(words: words, limit: limit - 1, strategy: tierReading, catalogueSize: searched) {
            rows = try TieredStoreSearch(db: db, request: request, tiers: tiers, api: api).rows()
        } else {
            rows = try ranked(request, limit: limit, api: api, in: db)
        }
        return (try MovieReading.withCasts(rows.map(StoredMovie.init(row:)), api: api, in: db), searched)
    }

    /// The movie rows of `rowIDs`, in that order.
    /// (Read 500 at a time: SQLite takes a bounded number of values in one statement.)
    static func rowsInOrder(_ rowIDs: [Int64], in db: Database) throws -> [Row] {
        var byRowID: [Int64: Row] = [:]
        for start in stride(from: 0, to: rowIDs.count, by: 500) {
            let part = rowIDs[start..<min(start + 500, rowIDs.count)]
            let sql = "SELECT rowid AS storedRow, movie.* FROM movie WHERE rowid IN (\(part.map { _ in "?" }.joined(separator: ",")))"
            for row in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(Array(part))) { byRowID[row["storedRow"]] = row }
        }
        return rowIDs.compactMap { byRowID[$0] }
    }

    /// The matches in one statement: every one ranked, then the first `limit`.
    static func ranked(_ request: MovieSearchRequest, limit: Int?, api: String, in db: Database) throws -> [Row] {
        let words = request.words
        let ranking = relevance(words)
        var arguments = ranking.arguments
        let relevance = ranking.sql
        var sql = "SELECT movie.*, \(relevance) AS relevance FROM movie"
        // Without words a page walks its sort's index in order, testing the filter on the index alone.
        sql += words.isEmpty ? " INDEXED BY \(StoredSortIndex(request.effectiveSort).name)" : " JOIN movieWords ON movieWords.rowid = movie.rowid"
        sql += " WHERE movie.apiId = \(StoredAPI.idOfKey)"
        arguments.append(api)
        if !words.isEmpty {
            sql += " AND movieWords MATCH ?"
            arguments.append(FTS5Query.allWords(words))
        }
        if let year = request.year {
            sql += " AND movie.year = ?"
            arguments.append(year)
        }
        let filter = filterConditions(request.filter)
        sql += filter.sql
        arguments += filter.arguments
        sql += " ORDER BY " + (words.isEmpty ? "" : "relevance DESC, ") + order(request)
        if let limit {
            sql += " LIMIT ?"
            arguments.append(limit)
        }
        return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments))
    }

    /// A movie's relevance as SQL (``SearchText``): each word in its title words, one more when the
    /// title begins with the words, one more when as whole words, one more when it is them; `0`
    /// without words.
    static func relevance(_ words: [String]) -> (sql: String, arguments: [any DatabaseValueConvertible]) {
        guard !words.isEmpty else { return ("0", []) }
        let start = SearchText.titleStart(words)
        let sql = words.indices.map { _ in "(instr(movie.titleWords, ?) > 0)" }.joined(separator: " + ")
            + " + (substr(movie.titleWords, 1, \(start.unicodeScalars.count)) = ?) + (substr(movie.titleWords, 1, \(start.unicodeScalars.count + 1)) = ?)"
            + " + (movie.titleWords = ?)"
        let whole = SearchText.wholeTitle(words)
        return (sql, words.indices.map { SearchText.needle(words, $0) } + [start, whole, whole])
    }

    /// The filter as conditions on the stored movie, each after ` AND `, with their arguments; the
    /// genres as bits (``StoredGenres``), every one of them set.
    static func filterConditions(_ filter: MovieFilter) -> (sql: String, arguments: [any DatabaseValueConvertible]) {
        var sql = "", arguments: [any DatabaseValueConvertible] = []
        if let years = filter.years {
            sql += " AND movie.year BETWEEN ? AND ?"
            arguments += [years.lowerBound, years.upperBound]
        }
        if let runtime = filter.runtime {
            sql += " AND movie.runtimeMinutes BETWEEN ? AND ?"
            arguments += [runtime.lowerBound, runtime.upperBound]
        }
        if let votes = filter.minimumVotes {
            sql += " AND movie.votes >= ?"
            arguments.append(votes)
        }
        if let rating = filter.minimumRating {
            sql += " AND movie.rating >= ?"
            arguments.append(rating)
        }
        if !filter.genres.isEmpty {
            let bits = Int64(MovieFilter.genreBits(filter.genres))
            sql += " AND (movie.genreBits & ?) = ?"
            arguments += [bits, bits]
        }
        return (sql, arguments)
    }

    /// The request's sort and the id, in its direction.
    static func order(_ request: MovieSearchRequest) -> String {
        let column = "movie." + StoredSortIndex(request.effectiveSort).column
        let direction = request.effectiveOrder == .ascending ? "ASC" : "DESC"
        return "\(column) \(direction), movie.id \(direction)"
    }
}
