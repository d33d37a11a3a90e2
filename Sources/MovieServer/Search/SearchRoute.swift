import MovieContract
import Movies
import Hummingbird

/// `GET /api/movies`: search and list the catalogue a page at a time (``MovieSearch``). The answer
/// is `{"movies": [...], "next": "<cursor>"}`, `next` `null` on the last page; it has an `ETag`
/// and the `Cache-Control` of the other movie answers. A valid request's page is kept in the
/// ``ResponseCache`` under its query (parameters in name order), until the catalogue changes.
struct SearchRoute: Sendable {
    let storage: any SearchStorage
    let cache: ResponseCache
    let caching: CachingDirectives
    let cursors: SearchCursor

    func answer(_ request: Request) async throws -> Response {
        var (search, cursor) = try SearchParameters.parse(request.uri)
        if let cursor {
            do throws(SearchCursor.Refusal) {
                search.after = try cursors.position(from: cursor, for: search)
            } catch .malformed {
                throw ErrorAnswer.badRequest("The cursor is not one this server made, or was changed: start again without it.")
            } catch {
                throw ErrorAnswer.badRequest("The cursor belongs to another search: keep the query, year, sort and order it came with.")
            }
        }
        let key = CacheKey(target: request.uri.string) ?? CacheKey(route: .search, parameter: request.uri.query ?? "")
        let answer = try await MovieRoutes.answer(key, cache: cache) { [search] () async throws(StorageError) in
            try await page(of: search)
        }
        return MovieRoutes.response(answer, to: request, caching: caching)
    }

    /// The page `search` asks for, with the cursor of the next one.
    private func page(of search: MovieSearch) async throws(StorageError) -> ResponseCache.Answer {
        let hits = try await storage.search(search)
        let page = Array(hits.prefix(search.limit))
        let next = hits.count > search.limit ? page.last.map { hit in
            cursors.make(after: search.position(of: hit), of: search)
        } : nil
        let movies: String = ContractJSON.list(page.map(\.movie))
        let nextJSON: String = next.map { "\"" + $0 + "\"" } ?? "null"
        return .found(CacheableBody(json: "{\"movies\":" + movies + ",\"next\":" + nextJSON + "}"))
    }
}
