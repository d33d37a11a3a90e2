/// What determines the bytes of a cacheable catalogue answer, read from a request's target
/// (`/api/movies/6`, `/api/movies?year=2016&sort=rating`) the same way on the event loop and in
/// the router: the route, its canonical parameter, and for a search the raw query's parameters in
/// name order (each must appear once for the router to answer, so their order never matters).
/// The answers vary by nothing else: every client allowed to ask gets the same bytes, and
/// `If-None-Match` and `HEAD` are applied to the kept answer.
struct CacheKey: Hashable, Sendable {
    /// The route, for the metrics' labels.
    enum Route: Int, Sendable, CaseIterable {
        case topGrossing, topRated, movie, search

        var label: String {
            switch self {
            case .topGrossing: "/api/movies/topGrossing/{year}"
            case .topRated: "/api/movies/topRated/{year}"
            case .movie: "/api/movies/{id}"
            case .search: "/api/movies"
            }
        }
    }

    let route: Route
    /// The year, the id, or the sorted query.
    let parameter: String

    /// The key of `target`, or `nil` for a target that is not a cacheable catalogue path.
    init?(target: String) {
        let (path, query) = Self.split(target)
        if path == "/api/movies" {
            self.init(route: .search, parameter: Self.sortedQuery(query))
            return
        }
        guard query == nil else { return nil }
        if let (order, year) = Self.topList(in: path) {
            self.init(route: order == .grossing ? .topGrossing : .topRated, parameter: String(year))
            return
        }
        guard let id = Self.movieID(in: path) else { return nil }
        self.init(route: .movie, parameter: String(id))
    }

    init(route: Route, parameter: String) {
        self.route = route
        self.parameter = parameter
    }

    /// How many bytes the key holds, for the cache's account.
    var size: Int { parameter.utf8.count + 16 }

    private static func split(_ target: String) -> (Substring, Substring?) {
        guard let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return (target[...], nil) }
        return (target[..<mark], target[target.index(after: mark)...])
    }

    private static func sortedQuery(_ query: Substring?) -> String {
        guard let query, !query.isEmpty else { return "" }
        return QueryParameters.canonical(query)
    }

    /// The id of `/api/movies/{id}`: ASCII digits only (as the router reads them), within `Int`.
    private static func movieID(in path: Substring) -> Int? {
        var utf8 = path.utf8
        let prefix = "/api/movies/".utf8
        guard utf8.starts(with: prefix) else { return nil }
        utf8.removeFirst(prefix.count)
        guard !utf8.isEmpty, utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return Int(Substring(utf8))
    }

    /// The list and year of `/api/movies/topGrossing/{year}` or `/api/movies/topRated/{year}`,
    /// for a year of one to four ASCII digits from 1 to 9999 and nothing after it.
    static func topList(in path: Substring) -> (TopListOrder, Int)? {
        var utf8 = path.utf8
        let prefix = "/api/movies/top".utf8
        guard utf8.starts(with: prefix) else { return nil }
        utf8.removeFirst(prefix.count)
        let order: TopListOrder
        if utf8.starts(with: "Grossing/".utf8) {
            order = .grossing
            utf8.removeFirst(9)
        } else if utf8.starts(with: "Rated/".utf8) {
            order = .rating
            utf8.removeFirst(6)
        } else {
            return nil
        }
        guard (1...4).contains(utf8.count) else { return nil }
        var year = 0
        for byte in utf8 {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            year = year * 10 + Int(byte - UInt8(ascii: "0"))
        }
        guard ParameterParsing.yearRange.contains(year) else { return nil }
        return (order, year)
    }
}
