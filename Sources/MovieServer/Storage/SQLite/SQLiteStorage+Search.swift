import GRDB

extension SQLiteStorage: SearchStorage {
    public func search(_ search: MovieSearch) async throws(StorageError) -> [SearchHit] {
        let tierReading = tierReading
        return try await read { db in try SQLiteSearch.hits(db, search, tierReading: tierReading) }
    }
}
