import Hummingbird

/// The movie paths of the contract, under `movies/`: one movie by id, and the top lists of a year.
///
/// Bodies are compact JSON with the contract's key order, each with a strong `ETag` and a
/// `Cache-Control`; a request whose `If-None-Match` names the tag gets a `304` without the body.
/// The top lists (and their tags) are made once, when the routes are built.
struct MovieRoutes: Sendable {
    private let catalog: Catalog
    private let caching: CachingDirectives
    private let topGrossingBodies: [Int: CacheableBody]
    private let topRatedBodies: [Int: CacheableBody]

    init(catalog: Catalog, caching: CachingDirectives) {
        self.catalog = catalog
        self.caching = caching
        let years = Set(catalog.movies.map(\.year))
        var grossing: [Int: CacheableBody] = [:], rated: [Int: CacheableBody] = [:]
        for year in years {
            grossing[year] = CacheableBody(json: ContractJSON.list(catalog.topGrossing(year: year)))
            rated[year] = CacheableBody(json: ContractJSON.list(catalog.topRated(year: year)))
        }
        topGrossingBodies = grossing
        topRatedBodies = rated
    }

    func register<Context: RequestContext>(on router: some RouterMethods<Context>) {
        router.get(":id") { request, context in
            let id = try ParameterParsing.movieID(context.parameters.get("id"))
            guard let movie = catalog.movie(id: id) else {
                throw ErrorAnswer.notFound("There is no movie with id \(id).")
            }
            return caching.response(for: CacheableBody(json: ContractJSON.movie(movie)), to: request)
        }
        router.get("") { _, _ -> Response in
            throw ErrorAnswer.badRequest("The movie id is missing: use /api/movies/{id}.")
        }
        for list in ["topGrossing", "topRated"] {
            router.get("\(list)") { _, _ -> Response in
                throw ErrorAnswer.badRequest("The year is missing: use /api/movies/\(list)/{year}.")
            }
        }
        router.get("topGrossing/:year") { request, context in
            let year = try ParameterParsing.year(context.parameters.get("year"))
            return caching.response(for: topGrossingBodies[year] ?? Self.emptyList, to: request)
        }
        router.get("topRated/:year") { request, context in
            let year = try ParameterParsing.year(context.parameters.get("year"))
            return caching.response(for: topRatedBodies[year] ?? Self.emptyList, to: request)
        }
    }

    private static let emptyList = CacheableBody(json: "[]")
}
