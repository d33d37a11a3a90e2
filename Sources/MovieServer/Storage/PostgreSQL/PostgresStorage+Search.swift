import PostgresNIO

extension PostgresStorage: SearchStorage {
    public func search(_ search: MovieSearch) async throws(StorageError) -> [SearchHit] {
        let tierReading = tierReading
        return try await run { client in try await PostgresSearch.hits(client, search, tierReading: tierReading, logger: self.logger) }
    }
}
