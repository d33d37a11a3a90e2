import MovieContract
import MovieServer
import PostgresNIO

extension PostgresStorage: SearchStorage {
    /// From the in-process index when it holds the catalogue version the database holds now;
    /// from PostgreSQL's own search otherwise, and when a movie it names has gone meanwhile.
    public func search(_ search: MovieSearch) async throws(StorageError) -> [SearchHit] {
        let tierReading = tierReading, searchIndex = searchIndex
        return try await run { client in
            if let searchIndex {
                let indexed: [SearchHit]? = try await client.withConnection { connection in
                    let version = try await PostgresSearchEntries.version(connection, logger: self.logger)
                    guard let hits = searchIndex.hits(search, version: version) else { return nil }
                    let movies = try await PostgresCatalogQueries.movies(connection, ids: hits.map(\.id), logger: self.logger)
                    guard movies.count == hits.count else { return nil }
                    return hits.map { SearchHit(movie: movies[$0.id]!, relevance: $0.relevance) }
                }
                if let indexed { return indexed }
            }
            return try await PostgresSearch.hits(client, search, tierReading: tierReading, logger: self.logger)
        }
    }

    /// From the in-process index of the catalogue version the database holds now.
    public func suggestion(for words: [String], year: Int?, latestYear: Int) async throws(StorageError) -> SuggestionWire.Answer {
        guard let searchIndex else { return SuggestionWire.Answer(suggestion: nil, indexReady: false) }
        await searchIndex.snapshotRead()
        let version = try await run { client in
            try await client.withConnection { connection in try await PostgresSearchEntries.version(connection, logger: self.logger) }
        }
        return searchIndex.suggestion(for: words, year: year, latestYear: latestYear, version: version)
    }

    public func prepareSearch() {
        searchIndex?.startBuilding()
    }

    public var isSearchReady: Bool { searchIndex?.hasBeenReady ?? true }

}

extension PostgresStorage: SearchIndexed {
    package func searchIndexReady() async -> Int64? {
        await searchIndex?.ready()
    }

    package var searchIndexCounts: SearchIndexCounts { searchIndex?.statistics ?? SearchIndexCounts() }
}
