import Hummingbird

/// The movie paths of the contract, under `movies/`: one movie by id, and the top lists of a year.
///
/// Bodies are compact JSON with the contract's key order, each with a strong `ETag` and a
/// `Cache-Control`; a request whose `If-None-Match` names the tag gets a `304` without the body.
/// The top lists (and their tags) are made once per catalog version (``TopListBodies``); a
/// storage failure is a 503, never a 500.
struct MovieRoutes: Sendable {
    private let storage: any ServerStorage
    private let caching: CachingDirectives
    private let topLists: TopListBodies
    private let search: SearchRoute

    init(storage: any ServerStorage, topLists: TopListBodies, caching: CachingDirectives, cursors: SearchCursor) {
        self.storage = storage
        self.caching = caching
        self.topLists = topLists
        search = SearchRoute(storage: storage, caching: caching, cursors: cursors)
    }

    func register<Context: RequestContext>(on router: some RouterMethods<Context>) {
        router.get(":id") { request, context in
            let id = try ParameterParsing.movieID(context.parameters.get("id"))
            let found: CatalogMovie?
            do throws(StorageError) { found = try await storage.movie(id: id) } catch { throw ErrorAnswer.storageUnavailable(error) }
            guard let movie = found else {
                throw ErrorAnswer.notFound("There is no movie with id \(id).")
            }
            return caching.response(for: CacheableBody(json: ContractJSON.movie(movie)), to: request)
        }
        router.get("") { [search] request, _ in
            try await search.answer(request)
        }
        for list in ["topGrossing", "topRated"] {
            router.get("\(list)") { _, _ -> Response in
                throw ErrorAnswer.badRequest("The year is missing: use /api/movies/\(list)/{year}.")
            }
        }
        for (path, order) in [("topGrossing", TopListOrder.grossing), ("topRated", .rating)] {
            router.get("\(path)/:year") { request, context in
                let year = try ParameterParsing.year(context.parameters.get("year"))
                let body: CacheableBody
                do throws(StorageError) {
                    body = try await topLists.body(order, year: year)
                } catch {
                    throw ErrorAnswer.storageUnavailable(error)
                }
                return caching.response(for: body, to: request)
            }
        }
    }
}
