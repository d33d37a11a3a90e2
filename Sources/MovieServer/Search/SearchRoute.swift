import Hummingbird
import MovieContract

/// `GET /api/movies`: search and list the catalogue a page at a time (``MovieSearch``). The answer
/// is `{"movies": [...], "next": "<cursor>", "rank": n}`, `next` `null` on the last page, `rank`
/// the place of the page's first movie among the matches (absent after a cursor that did not
/// say, one made before ranks were kept); it has an `ETag`
/// and the `Cache-Control` of the other movie answers. A valid request's page is kept in the
/// ``ResponseCache`` under its query (parameters in name order), until the catalogue changes.
struct SearchRoute: Sendable {
    let storage: any SearchStorage
    let cache: ResponseCache
    let caching: CachingDirectives
    let cursors: SearchCursor

    func answer(_ request: Request) async throws -> Response {
        var (search, cursor) = try SearchParameters.parse(request.uri)
        var rank: Int? = 1
        if let cursor {
            do throws(SearchCursor.Refusal) {
                let start = try cursors.start(from: cursor, for: search)
                search.after = start.after
                rank = start.rank
            } catch .malformed {
                throw ErrorAnswer.badRequest(Self.unknownCursor)
            } catch {
                throw ErrorAnswer.badRequest("The cursor belongs to another search: keep the query, year, filters, sort and order it came with.")
            }
        }
        let key = CacheKey(target: request.uri.string) ?? CacheKey(route: .search, parameter: request.uri.query ?? "")
        let answer = try await MovieRoutes.answer(key, cache: cache) { [search, rank] () async throws(StorageError) in
            try await page(of: search, rank: rank)
        }
        return MovieRoutes.response(answer, to: request, caching: caching)
    }

    /// What a person reads when the server no longer knows a cursor: a server restarted without
    /// `--signing-keys` makes a new key, and every cursor made before is refused.
    static let unknownCursor = "The cursor is not one this server made (a server restarted without its signing keys forgets its cursors), or it was changed: ask for the first page again, without the cursor."

    /// The page `search` asks for, whose first movie is at `rank` among the matches when known,
    /// with the cursor of the next one.
    private func page(of search: MovieSearch, rank: Int?) async throws(StorageError) -> ResponseCache.Answer {
        let hits = try await storage.search(search)
        let page = Array(hits.prefix(search.limit))
        let next = hits.count > search.limit ? page.last.map { hit in
            cursors.make(after: search.position(of: hit), rank: rank.map { $0 + page.count }, of: search)
        } : nil
        let movies: String = ContractJSON.list(page.map(\.movie))
        let nextJSON: String = next.map { "\"" + $0 + "\"" } ?? "null"
        let rankJSON = rank.map { ",\"rank\":\($0)" } ?? ""
        return .found(CacheableBody(json: "{\"movies\":" + movies + ",\"next\":" + nextJSON + rankJSON + "}"))
    }
}
