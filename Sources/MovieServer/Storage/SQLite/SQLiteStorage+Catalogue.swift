import GRDB

extension SQLiteStorage: CatalogueStorage {
    public func movie(id: Int) async throws(StorageError) -> CatalogMovie? {
        try await read { db in try SQLiteCatalogQueries.movies(db, sql: "SELECT * FROM movie WHERE id = ?", arguments: [id]).first }
    }

    public func topMovies(_ order: TopListOrder, year: Int, limit: Int) async throws(StorageError) -> [CatalogMovie] {
        let column = order == .grossing ? "grossing" : "rating"
        return try await read { db in
            try SQLiteCatalogQueries.movies(
                db, sql: "SELECT * FROM movie WHERE year = ? ORDER BY \(column) DESC, id DESC LIMIT ?", arguments: [year, limit]
            )
        }
    }

    public func catalogVersion() async throws(StorageError) -> Int64 {
        try await read { db in try Int64.fetchOne(db, sql: "SELECT version FROM catalog_state") ?? 0 }
    }
}
