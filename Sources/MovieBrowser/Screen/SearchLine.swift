import MovieContract

/// The search line of browse read as words and a filter: `alien genre:horror runtime:80-120
/// votes:1000 rating:70 year:1979-1990`. A `name:value` of a known name is a filter (`genre:`
/// may be given again, or name several genres separated by commas); anything else is words.
/// Filters alone list the catalogue.
public struct SearchLine: Sendable, Equatable {
    /// The words to search for; `nil` when only filters were typed.
    public var words: String?
    public var year: Int?
    public var filter = MovieFilter()
    /// Why a filter typed cannot be used, in a line a person can act on.
    public var problem: String?

    /// The names a filter is typed with, as the help lists them.
    public static let names = ["genre", "runtime", "votes", "rating", "year"]

    public init(_ text: String) {
        var words: [Substring] = []
        for token in text.split(whereSeparator: \.isWhitespace) {
            guard let colon = token.firstIndex(of: ":"), Self.names.contains(token[..<colon].lowercased()) else {
                words.append(token)
                continue
            }
            let value = String(token[token.index(after: colon)...])
            do throws(MovieFilterText.Problem) {
                try apply(name: token[..<colon].lowercased(), value: value)
            } catch {
                problem = problem ?? error.message
            }
        }
        self.words = words.isEmpty ? nil : words.joined(separator: " ")
    }

    /// The request this line asks for (words or a listing), from `cursor`.
    public func request(cursor: String?) -> MovieSearchRequest {
        MovieSearchRequest(text: words, year: year, cursor: cursor, filter: filter)
    }

    /// The filter in words (`Filter: 1990-1999, Drama, 80-120 minutes`), or nil without one.
    public var summary: String? {
        let phrase = MovieFilterText.phrase(year: year, filter: filter)
        return phrase.isEmpty ? nil : "Filter:" + phrase.dropFirst(3)
    }

    private mutating func apply(name: String, value: String) throws(MovieFilterText.Problem) {
        switch name {
        case "genre": filter.require(genres: try MovieFilterText.genres(value))
        case "runtime": filter.runtime = try MovieFilterText.runtime(value)
        case "votes": filter.minimumVotes = try MovieFilterText.minimumVotes(value)
        case "rating": filter.minimumRating = try MovieFilterText.minimumRating(value)
        default:
            let years = try MovieFilterText.years(value)
            if years.count == 1 {
                (year, filter.years) = (years.lowerBound, nil)
            } else {
                (year, filter.years) = (nil, years)
            }
        }
    }
}
