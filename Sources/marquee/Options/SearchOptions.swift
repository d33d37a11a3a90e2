import ArgumentParser
import MovieContract
import Movies

/// What `search` and `movies` share: the year, the order, the page size, and which page. `Sort`
/// is the orders the command offers: `movies` lists without words, so relevance is not one of them.
struct SearchOptions<Sort: SortChoice>: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Only movies of this year.", valueName: "year"))
    var year: Int?

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
        if let year, !MovieList.years.contains(year) {
            throw ValidationError("the year must be from \(MovieList.years.lowerBound) to \(MovieList.years.upperBound), not \(year)")
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
        MovieSearchRequest(text: text, year: year, sort: sort?.searchSort, order: order, limit: limit, cursor: cursor)
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
