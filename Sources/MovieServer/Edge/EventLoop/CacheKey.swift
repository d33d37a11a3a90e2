/// What determines the bytes of a cacheable catalogue answer, read from a request's target
/// (`/api/movies/6`, `/api/movies?year=2016&sort=rating`) the same way on the event loop and in
/// the router: the route, its canonical parameter, and for a search the raw query's parameters in
/// name order (each must appear once for the router to answer, so their order never matters).
/// The answers vary by nothing else: every client allowed to ask gets the same bytes, and
/// `If-None-Match` and `HEAD` are applied to the kept answer.
struct CacheKey: Hashable, Sendable {
    /// The catalogue's cacheable routes under `/api/movies/`: the table ``MovieRoutes`` registers
    /// on the router and ``init(target:)`` reads a target by, so that the two cannot differ.
    enum Route: Int, Sendable, CaseIterable {
        // Routes with a literal come before `movie`, whose path is its parameter alone.
        case topGrossing, topRated, movie, search

        /// The route's one path parameter, read the same way by the router and the event loop.
        enum Parameter: String, Sendable {
            case year, id

            /// The parameter's value in `segment`, or `nil` for a segment the router refuses. A
            /// year of more than four digits (`02016`) is left to the router too, which reads it
            /// the same way.
            func read(_ segment: Substring) -> Int? {
                switch self {
                case .year: segment.utf8.count <= 4 ? ParameterParsing.year(in: segment) : nil
                case .id: ParameterParsing.wholeNumber(segment)
                }
            }
        }

        /// What follows `/api/movies/` before the parameter.
        var literal: String {
            switch self {
            case .topGrossing: "topGrossing/"
            case .topRated: "topRated/"
            case .movie, .search: ""
            }
        }

        var parameter: Parameter? {
            switch self {
            case .topGrossing, .topRated: .year
            case .movie: .id
            case .search: nil
            }
        }

        /// The path the router registers under `movies/`: `topGrossing/:year`, `:id`, ``.
        var routerPath: String { literal + (parameter.map { ":\($0.rawValue)" } ?? "") }

        /// The path in the metrics' labels, as the router names it: `/api/movies/topGrossing/{year}`.
        var label: String {
            let tail = literal + (parameter.map { "{\($0.rawValue)}" } ?? "")
            return tail.isEmpty ? "/api/movies" : "/api/movies/" + tail
        }
    }

    let route: Route
    /// The year, the id, or the sorted query.
    let parameter: String

    /// The key of `target`, or `nil` for a target that is not a cacheable catalogue path.
    init?(target: String) {
        let (path, query) = Self.split(target)
        var rest = path.utf8
        let prefix = "/api/movies".utf8
        guard rest.starts(with: prefix) else { return nil }
        rest.removeFirst(prefix.count)
        if rest.isEmpty {
            self.init(route: .search, parameter: Self.sortedQuery(query))
            return
        }
        guard query == nil, rest.first == UInt8(ascii: "/") else { return nil }
        rest.removeFirst()
        guard let route = Route.allCases.first(where: { $0.parameter != nil && rest.starts(with: $0.literal.utf8) }) else { return nil }
        guard let value = route.parameter?.read(Substring(rest.dropFirst(route.literal.utf8.count))) else { return nil }
        self.init(route: route, parameter: String(value))
    }

    init(route: Route, parameter: String) {
        self.route = route
        self.parameter = parameter
    }

    /// How many bytes the key holds, for the cache's account.
    var size: Int { parameter.utf8.count + 16 }

    // Keys are equal by their bytes, not by Swift's canonical equivalence of strings: a precomposed
    // `é` and `e` with a combining accent are different searches to the router (its limits count
    // code points), so one may not be answered with the other's kept answer.
    static func == (left: CacheKey, right: CacheKey) -> Bool {
        guard left.route == right.route else { return false }
        var leftBytes = left.parameter, rightBytes = right.parameter
        return leftBytes.withUTF8 { leftBuffer in rightBytes.withUTF8 { leftBuffer.elementsEqual($0) } }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(route)
        var bytes = parameter
        bytes.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// The path and the query, as the router reads them: a fragment (`#…`, which a client should
    /// not send, but may) ends both, so `?query=the#&limit=3` is the search the router answers,
    /// `query=the`, and shares no key with `?query=the%23&limit=3`.
    private static func split(_ target: String) -> (Substring, Substring?) {
        let utf8 = target.utf8
        let end = utf8.firstIndex(of: UInt8(ascii: "#")) ?? utf8.endIndex
        guard let mark = utf8[..<end].firstIndex(of: UInt8(ascii: "?")) else { return (target[..<end], nil) }
        return (target[..<mark], target[target.index(after: mark)..<end])
    }

    private static func sortedQuery(_ query: Substring?) -> String {
        guard let query, !query.isEmpty else { return "" }
        return QueryParameters.canonical(query)
    }
}
