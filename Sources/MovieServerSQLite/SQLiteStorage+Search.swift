import GRDB
import MovieContract
import MovieServer

extension SQLiteStorage: SearchStorage {
    /// From the in-process index when it holds the catalogue version the file holds now, in the
    /// same read as the movies it names; from SQLite's own search otherwise.
    public func search(_ search: MovieSearch) async throws(StorageError) -> [SearchHit] {
        let tierReading = tierReading, searchIndex = searchIndex
        await searchIndex?.snapshotRead()
        return try await read { db in
            if let searchIndex, let hits = searchIndex.hits(search, version: try SQLiteSearchEntries.version(db)) {
                let movies = try SQLiteCatalogQueries.movies(db, ids: hits.map(\.id))
                if movies.count == hits.count {
                    return hits.map { SearchHit(movie: movies[$0.id]!, relevance: $0.relevance) }
                }
            }
            return try SQLiteSearch.hits(db, search, tierReading: tierReading)
        }
    }

    /// From the in-process index of the catalogue version the file holds now, read outside the
    /// transaction that reads the version.
    public func suggestion(for words: [String], year: Int?, latestYear: Int) async throws(StorageError) -> SuggestionWire.Answer {
        guard let searchIndex else { return SuggestionWire.Answer(suggestion: nil, indexReady: false) }
        await searchIndex.snapshotRead()
        let version = try await read { db in try SQLiteSearchEntries.version(db) }
        return searchIndex.suggestion(for: words, year: year, latestYear: latestYear, version: version)
    }

    public func prepareSearch() {
        searchIndex?.startBuilding()
    }

    public var isSearchReady: Bool { searchIndex?.hasBeenReady ?? true }

}

extension SQLiteStorage: SearchIndexed {
    package func searchIndexReady() async -> Int64? {
        await searchIndex?.ready()
    }

    package var searchIndexCounts: SearchIndexCounts { searchIndex?.statistics ?? SearchIndexCounts() }
}
