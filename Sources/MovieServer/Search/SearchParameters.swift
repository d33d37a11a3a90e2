import Hummingbird
import HummingbirdCore
import MovieContract

/// Reads the query string of `GET /api/movies` strictly (as ``QueryParameters`` splits it): each
/// parameter once, known names only, values in range; anything else is a 400 that says what is
/// wrong.
enum SearchParameters {
    static let names = ["query", "year", "genre", "runtime", "minVotes", "minRating", "sort", "order", "limit", "cursor"]

    /// The search the query string asks for, and its cursor, still to be checked against it.
    static func parse(_ uri: URI) throws(ErrorAnswer) -> (MovieSearch, cursor: String?) {
        var values: [String: String] = [:]
        for (name, value) in QueryParameters.read(uri.query.map { $0[...] } ?? "") {
            guard names.contains(name) else {
                throw .badRequest("Unknown parameter '\(excerpt(name))': the parameters are \(names.joined(separator: ", ")).")
            }
            guard values.updateValue(value, forKey: name) == nil else {
                throw .badRequest("The parameter '\(name)' is given more than once.")
            }
        }
        var words: [String] = []
        if let query = values["query"] {
            guard !query.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw .badRequest("The query is empty: leave it out to list movies, or give words to search for.")
            }
            guard query.unicodeScalars.count <= MovieSearchRequest.maximumQueryLength else {
                throw .badRequest("The query is longer than \(MovieSearchRequest.maximumQueryLength) characters (Unicode code points).")
            }
            words = SearchText.words(query)
            guard words.count <= MovieSearchRequest.maximumWords else {
                throw .badRequest("The query has more than \(MovieSearchRequest.maximumWords) words.")
            }
        }
        let (year, filter) = try filter(values)
        let sort = try values["sort"].map { text throws(ErrorAnswer) -> SearchSort in
            guard let sort = SearchSort(rawValue: text) else {
                throw .badRequest("The sort must be one of \(SearchSort.allCases.map(\.rawValue).joined(separator: ", ")), not '\(excerpt(text))'.")
            }
            return sort
        }
        if sort == .relevance, values["query"] == nil {
            throw .badRequest("The sort 'relevance' needs a query; without one, sort by grossing, rating, released or title.")
        }
        let order = try values["order"].map { text throws(ErrorAnswer) -> SortOrder in
            guard let order = SortOrder(rawValue: text) else { throw .badRequest("The order must be asc or desc, not '\(excerpt(text))'.") }
            return order
        }
        let limit = try values["limit"].map { text throws(ErrorAnswer) -> Int in
            guard text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let limit = Int(text), MovieSearchRequest.limits.contains(limit) else {
                throw .badRequest("The limit must be a whole number from \(MovieSearchRequest.limits.lowerBound) to \(MovieSearchRequest.limits.upperBound), not '\(excerpt(text))'.")
            }
            return limit
        } ?? MovieSearchRequest.defaultLimit
        var search = MovieSearch(words: words, year: year, sort: sort, order: order, limit: limit, filter: filter)
        search.hasQuery = values["query"] != nil
        return (search, values["cursor"])
    }

    /// The year (one year) and the filter (a span of years, genres, runtime, votes, rating) the parameters ask for.
    private static func filter(_ values: [String: String]) throws(ErrorAnswer) -> (year: Int?, filter: MovieFilter) {
        do throws(MovieFilterText.Problem) {
            var filter = MovieFilter()
            var year: Int?
            if let text = values["year"] {
                let years = try MovieFilterText.years(text)
                if years.count == 1 { year = years.lowerBound } else { filter.years = years }
            }
            if let text = values["genre"] { filter.require(genres: try MovieFilterText.genres(text)) }
            filter.runtime = try values["runtime"].map { text throws(MovieFilterText.Problem) in try MovieFilterText.runtime(text) }
            filter.minimumVotes = try values["minVotes"].map { text throws(MovieFilterText.Problem) in try MovieFilterText.minimumVotes(text) }
            filter.minimumRating = try values["minRating"].map { text throws(MovieFilterText.Problem) in try MovieFilterText.minimumRating(text) }
            return (year, filter)
        } catch {
            throw .badRequest(error.message)
        }
    }

    private static func excerpt(_ text: String) -> String { ParameterParsing.excerpt(text) }
}
