import FTS5Search
import GRDB
import MovieContract
import Movies
import SearchPlanning

/// A first page of one to three words in any sort, read from the store a relevance at a time as
/// the server's SQLite catalogue reads it (``FTS5TieredSearch``), among one API's movies that pass
/// the request's filter (a broad one: ``FacetSearch`` reads the others).
/// The text index holds every API's movies, so its counts only choose the way; the rows are the API's.
struct TieredStoreSearch {
    let db: Database
    let request: MovieSearchRequest
    let tiers: SearchTiers
    let api: String

    func rows() throws -> [Row] {
        let index = StoredSortIndex(request.effectiveSort)
        let order = FTS5TieredSearch.Order(column: "movie." + index.column, ascending: request.effectiveOrder == .ascending, index: index.name)
        let filter = MovieSearching.filterConditions(request.filter)
        let scope = SQL(sql: "movie.apiId = \(StoredAPI.idOfKey)" + filter.sql, arguments: StatementArguments([api] + filter.arguments))
        let reading = try FTS5TieredSearch(
            db: db, tables: .store, tiers: tiers, selection: "movie.*", scope: scope, order: order, year: request.year
        ).read()
        switch reading {
        case .nothing: return []
        case .fewMatches: return try MovieSearching.ranked(request, limit: tiers.limit + 1, api: api, in: db)
        case let .byRelevance(found): return found.map(\.item)
        }
    }
}
