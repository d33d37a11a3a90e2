import ArgumentParser
import Movies

/// What `search` and `movies` share: the year, the order, the page size, and which page.
struct SearchOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Only movies of this year.", valueName: "year"))
    var year: Int?

    @Option(help: ArgumentHelp("The order: \(SearchSort.allCases.map(\.rawValue).joined(separator: ", ")) (default: relevance with words, grossing without).", valueName: "sort"))
    var sort: SearchSort?

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
        MovieSearchRequest(text: text, year: year, sort: sort, order: order, limit: limit, cursor: cursor)
    }
}

extension SearchSort: ExpressibleByArgument {}
extension SortOrder: ExpressibleByArgument {}
