import Hummingbird

/// The movie paths of the contract, under `movies/`: one movie by id, the top lists of a year,
/// and search and listing pages.
///
/// Bodies are compact JSON with the contract's key order, each with a strong `ETag` and a
/// `Cache-Control`; a request whose `If-None-Match` names the tag gets a `304` without the body.
/// Every answer (a 404 for an id the catalogue lacks included) is computed once per catalogue
/// version and kept in the ``ResponseCache``, which the event loop answers from as well; a
/// storage failure is a 503, never a 500, and is not kept.
struct MovieRoutes: Sendable {
    private let cache: ResponseCache
    private let caching: CachingDirectives
    private let answers: CatalogAnswers
    private let search: SearchRoute
    private let suggestions: SuggestionRoute

    init(storage: any CatalogueStorage & SearchStorage, cache: ResponseCache, caching: CachingDirectives, cursors: SearchCursor) {
        self.cache = cache
        self.caching = caching
        answers = CatalogAnswers(storage: storage)
        search = SearchRoute(storage: storage, cache: cache, caching: caching, cursors: cursors)
        suggestions = SuggestionRoute(storage: storage)
    }

    func register<Context: RequestContext>(on router: some RouterMethods<Context>) {
        router.get(RouterPath(CacheKey.Route.movie.routerPath)) { [cache, answers, caching] request, context in
            let id = try ParameterParsing.movieID(context.parameters.get(CacheKey.Route.Parameter.id.rawValue))
            let answer = try await Self.answer(CacheKey(route: .movie, parameter: String(id)), cache: cache) { () async throws(StorageError) in
                try await answers.movie(id: id)
            }
            return Self.response(answer, to: request, caching: caching)
        }
        router.get(RouterPath(CacheKey.Route.search.routerPath)) { [search] request, _ in
            try await search.answer(request)
        }
        router.get(RouterPath(SuggestionRoute.path)) { [suggestions] request, _ in
            try await suggestions.answer(request)
        }
        for route in [CacheKey.Route.topGrossing, .topRated] {
            router.get(RouterPath(String(route.literal.dropLast()))) { _, _ -> Response in
                throw ErrorAnswer.badRequest("The year is missing: use \(route.label).")
            }
            router.get(RouterPath(route.routerPath)) { [cache, answers, caching] request, context in
                let year = try ParameterParsing.year(context.parameters.get(CacheKey.Route.Parameter.year.rawValue))
                let key = CacheKey(route: route, parameter: String(year))
                let answer = try await Self.answer(key, cache: cache) { () async throws(StorageError) in try await answers.topList(key) }
                return Self.response(answer, to: request, caching: caching)
            }
        }
    }

    /// The kept or newly computed answer for `key`; a storage failure is a 503.
    static func answer(
        _ key: CacheKey, cache: ResponseCache, compute: () async throws(StorageError) -> ResponseCache.Answer
    ) async throws(ErrorAnswer) -> ResponseCache.Answer {
        try await answering { () async throws(StorageError) in try await cache.answer(key, compute: compute) }
    }

    /// The response for a kept answer. A 404 is returned, not thrown: the bytes are the error
    /// answer's, without unwinding every middleware and casting the error in each.
    static func response(_ answer: ResponseCache.Answer, to request: Request, caching: CachingDirectives) -> Response {
        switch answer {
        case let .found(body): caching.response(for: body, to: request)
        case let .notFound(_, body): ErrorAnswer.response(status: .notFound, body: body)
        }
    }
}
