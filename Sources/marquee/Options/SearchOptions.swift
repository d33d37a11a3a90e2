import ArgumentParser
import MovieContract
import Movies

/// What `search` and `movies` share: the year and the filter, the order, the page size, and which
/// page. `Sort` is the orders the command offers: `movies` lists without words, so relevance is
/// not one of them.
struct SearchOptions<Sort: SortChoice>: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Only movies of this year, or of a span of years (1990-1999, 1990-).", valueName: "year"))
    var year: String?

    @Option(help: ArgumentHelp("Only movies of this genre, as IMDb names them (Drama, Sci-Fi …); repeat it, or separate by commas, for movies of all of them.", valueName: "genre"))
    var genre: [String] = []

    @Option(parsing: .unconditional, help: ArgumentHelp("Only movies of this runtime in minutes: 80-120, 180- or 95.", valueName: "minutes"))
    var runtime: String?

    @Option(name: .customLong("min-votes"), parsing: .unconditional, help: ArgumentHelp("Only movies with at least this many votes on IMDb.", valueName: "count"))
    var minimumVotes: String?

    @Option(name: .customLong("min-rating"), parsing: .unconditional, help: ArgumentHelp("Only movies rated at least this, on the catalogue's scale of 0 to 100 (IMDb's 7.5 is 75).", valueName: "rating"))
    var minimumRating: String?

    @Option(help: ArgumentHelp("The order: \(Sort.allCases.map(\.rawValue).joined(separator: ", ")) (default: \(Sort.defaultOrder)).", valueName: "sort"))
    var sort: Sort?

    @Option(help: ArgumentHelp("asc or desc (default: desc; asc for title).", valueName: "order"))
    var order: SortOrder?

    @Option(parsing: .unconditional, help: ArgumentHelp("How many movies a page holds, from \(MovieSearchRequest.limits.lowerBound) to \(MovieSearchRequest.limits.upperBound).", valueName: "count"))
    var limit = MovieSearchRequest.defaultLimit

    @Flag(help: "Every page, not only the first.")
    var all = false

    @Option(help: ArgumentHelp("Start at the page after the one that printed this cursor.", valueName: "cursor"))
    var cursor: String?

    func validate() throws {
        do throws(MovieFilterText.Problem) {
            _ = try yearAndFilter()
        } catch {
            throw ValidationError(error.message)
        }
        guard MovieSearchRequest.limits.contains(limit) else {
            throw ValidationError("the limit must be from \(MovieSearchRequest.limits.lowerBound) to \(MovieSearchRequest.limits.upperBound), not \(limit)")
        }
        if all, cursor != nil { throw ValidationError("--all starts at the first page; leave out --cursor") }
    }

    /// A cursor pages the server's results; an answer from the store comes whole, so a cursor
    /// there would print the first page again (a paging script would loop for ever).
    func validate(with client: ClientOptions) throws {
        if cursor != nil, client.offline || client.policy == .cacheOnly {
            throw ValidationError("--cursor pages the server's results and an offline answer comes whole: leave out --cursor, or give --all or a larger --limit")
        }
    }

    func request(text: String?) -> MovieSearchRequest {
        let (year, filter) = (try? yearAndFilter()) ?? (nil, .none)
        return MovieSearchRequest(text: text, year: year, sort: sort?.searchSort, order: order, limit: limit, cursor: cursor, filter: filter)
    }

    /// One year as the search's year, a span of them and the rest as its filter.
    private func yearAndFilter() throws(MovieFilterText.Problem) -> (year: Int?, filter: MovieFilter) {
        var filter = MovieFilter(), year: Int?
        if let text = self.year {
            let years = try MovieFilterText.years(text)
            if years.count == 1 { year = years.lowerBound } else { filter.years = years }
        }
        for text in genre { filter.require(genres: try MovieFilterText.genres(text)) }
        if let runtime { filter.runtime = try MovieFilterText.runtime(runtime) }
        if let minimumVotes { filter.minimumVotes = try MovieFilterText.minimumVotes(minimumVotes) }
        if let minimumRating { filter.minimumRating = try MovieFilterText.minimumRating(minimumRating) }
        return (year, filter)
    }
}

/// The orders a listing command offers on its command line.
protocol SortChoice: ExpressibleByArgument, CaseIterable, RawRepresentable<String>, Sendable {
    var searchSort: SearchSort { get }
    /// The order in force when none is given, in words.
    static var defaultOrder: String { get }
}

extension SearchSort: ExpressibleByArgument, SortChoice {
    var searchSort: SearchSort { self }
    static var defaultOrder: String { "relevance" }
}

/// The orders of `marquee movies`: every one but relevance, which needs words to search for.
enum ListingSort: String, SortChoice {
    case grossing, rating, released, title

    var searchSort: SearchSort {
        switch self {
        case .grossing: .grossing
        case .rating: .rating
        case .released: .released
        case .title: .title
        }
    }

    static var defaultOrder: String { "grossing" }
}
extension SortOrder: ExpressibleByArgument {}
