import MovieContract
/// Computes the catalogue's cacheable answers from storage, for the ``ResponseCache`` to keep.
struct CatalogAnswers: Sendable {
    let storage: any CatalogueStorage

    /// The top list a `.topGrossing` or `.topRated` key names.
    func topList(_ key: CacheKey) async throws(StorageError) -> ResponseCache.Answer {
        let order: TopListOrder = key.route == .topGrossing ? .grossing : .rating
        let movies = try await storage.topMovies(order, year: Int(key.parameter) ?? 0, limit: Catalog.topListLimit)
        return .found(CacheableBody(json: ContractJSON.list(movies)))
    }

    /// The movie with `id`, or the 404 that says there is none.
    func movie(id: Int) async throws(StorageError) -> ResponseCache.Answer {
        guard let movie = try await storage.movie(id: id) else {
            return .notFound(ErrorAnswer.notFound("There is no movie with id \(id)."))
        }
        return .found(CacheableBody(json: ContractJSON.movie(movie)))
    }
}
