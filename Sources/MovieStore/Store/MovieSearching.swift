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
/// A first page by relevance (or grossing) of one to three words is read as the server reads it
/// (``SearchTiers``): few matches ranked in one statement; many a relevance at a time, sorted when
/// the relevance holds few movies, met by walking the API's movies by grossing when it holds many.
/// The text index holds every API's movies, so its counts only choose the way; the rows are the API's.
enum MovieSearching {
    /// The first `limit` matches (all of them when `limit` is `nil`), and how many movies of the API are stored.
    static func search(_ request: MovieSearchRequest, limit: Int?, api: String, in db: Database, tierReading: TierReading = .bySize) throws -> (movies: [Movie], searched: Int) {
        let searched = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM movie WHERE apiId = \(StoredAPI.idOfKey)", arguments: [api]) ?? 0
        let words = request.words
        if request.text != nil, words.isEmpty { return ([], searched) }
        let rows: [Row]
        if let limit, request.filter.isEmpty, [.relevance, .grossing].contains(request.effectiveSort),
           let tiers = SearchTiers(words: words, limit: limit - 1, strategy: tierReading) {
            rows = try TieredStoreSearch(db: db, request: request, tiers: tiers, api: api).rows()
        } else {
            rows = try ranked(request, limit: limit, api: api, in: db)
        }
        return (try MovieReading.withCasts(rows.map(StoredMovie.init(row:)), api: api, in: db), searched)
    }

    /// The matches in one statement: every one ranked, then the first `limit`.
    static func ranked(_ request: MovieSearchRequest, limit: Int?, api: String, in db: Database) throws -> [Row] {
        let words = request.words
        var arguments: [any DatabaseValueConvertible] = []
        var relevance = "0"
        if !words.isEmpty {
            let start = SearchText.titleStart(words)
            relevance = words.indices.map { _ in "(instr(movie.titleWords, ?) > 0)" }.joined(separator: " + ")
                + " + (substr(movie.titleWords, 1, \(start.unicodeScalars.count)) = ?) + (substr(movie.titleWords, 1, \(start.unicodeScalars.count + 1)) = ?)"
                + " + (movie.titleWords = ?)"
            let whole = SearchText.wholeTitle(words)
            arguments += words.indices.map { SearchText.needle(words, $0) } + [start, whole, whole]
        }
        var sql = "SELECT movie.*, \(relevance) AS relevance FROM movie"
        if !words.isEmpty { sql += " JOIN movieWords ON movieWords.rowid = movie.rowid" }
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

    /// The filter as conditions on the stored movie, each after ` AND `, with their arguments. A
    /// genre is found in the stored `Drama,Sci-Fi` as `,Drama,` in `,Drama,Sci-Fi,`.
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
        for genre in filter.genres {
            sql += " AND instr(',' || movie.genres || ',', ?) > 0"
            arguments.append("," + genre + ",")
        }
        return (sql, arguments)
    }

    /// The request's sort and the id, in its direction.
    static func order(_ request: MovieSearchRequest) -> String {
        let column = switch request.effectiveSort {
        case .relevance, .grossing: "movie.grossing"
        case .rating: "movie.rating"
        case .released: "movie.releaseDate"
        case .title: "movie.titleKey"
        }
        let direction = request.effectiveOrder == .ascending ? "ASC" : "DESC"
        return "\(column) \(direction), movie.id \(direction)"
    }
}
