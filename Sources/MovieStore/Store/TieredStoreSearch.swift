import FTS5Search
import GRDB
import MovieContract
import Movies
import SearchPlanning

/// A first page of one to three words by grossing, read from the store a relevance at a time as
/// the server's SQLite catalogue reads it (``FTS5TieredSearch``), among one API's movies. The text
/// index holds every API's movies, so its counts only choose the way; the rows are the API's.
struct TieredStoreSearch {
    let db: Database
    let request: MovieSearchRequest
    let tiers: SearchTiers
    let api: String

    func rows() throws -> [Row] {
        let order = FTS5TieredSearch.Order(
            column: "movie.grossing", ascending: request.effectiveOrder == .ascending, index: "movie_on_apiId_grossing"
        )
        let reading = try FTS5TieredSearch(
            db: db, tables: .store, tiers: tiers, selection: "movie.*",
            scope: SQL(sql: "movie.apiId = \(StoredAPI.idOfKey)", arguments: [api]), order: order, year: request.year
        ).read()
        switch reading {
        case .nothing: return []
        case .fewMatches: return try MovieSearching.ranked(request, limit: tiers.limit + 1, api: api, in: db)
        case let .byRelevance(found): return found.map(\.item)
        }
    }
}
