import FTS5Search
import GRDB
import MovieContract
import MovieServer
import MovieServerSQL
import SearchPlanning

/// A search of one to three words on the SQLite catalogue, read a relevance at a time as the
/// client's store reads its own (``FTS5TieredSearch``), in the search's sort and from its position.
struct SQLiteTieredSearch {
    let db: Database
    let search: MovieSearch
    let tiers: SearchTiers

    private var parts: SearchSQL { SearchSQL(search: search, contains: { "instr(\($0), \($1)) > 0" }, textCollation: "") }

    func hits() throws -> [SearchHit] {
        let order = FTS5TieredSearch.Order(column: parts.sortColumn, ascending: search.order == .ascending, index: index)
        let reading = try FTS5TieredSearch(
            db: db, tables: .catalogue, tiers: tiers, selection: "movie.id", order: order, year: search.year, after: keyset(in:)
        ).read()
        switch reading {
        case .nothing:
            return []
        case .fewMatches:
            return try SQLiteSearch.ranked(db, search)
        case let .byRelevance(found):
            let ids: [Int] = found.map { $0.item[0] }
            let movies = try SQLiteCatalogQueries.movies(db, ids: ids)
            return zip(ids, found).compactMap { id, hit in movies[id].map { SearchHit(movie: $0, relevance: hit.relevance) } }
        }
    }

    /// In the position's relevance, the movies after it.
    private func keyset(in relevance: Int) -> SQL? {
        guard let position = search.after, position.relevance == relevance else { return nil }
        let (sql, bound) = parts.keyset(after: position) { "?" }
        return SQL(sql: sql, arguments: StatementArguments(bound.map(SQLiteSearch.databaseValue)))
    }

    /// The index that holds the sort's order (within the year, when there is one).
    private var index: String {
        switch (search.sort, search.year != nil) {
        case (.relevance, false), (.grossing, false): "movie_grossing"
        case (.relevance, true), (.grossing, true): "movie_top_grossing"
        case (.rating, false): "movie_rating"
        case (.rating, true): "movie_top_rated"
        case (.released, false): "movie_released"
        case (.released, true): "movie_year_released"
        case (.title, false): "movie_title"
        case (.title, true): "movie_year_title"
        }
    }
}
