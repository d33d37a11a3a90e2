import GRDB
import MovieContract
import MovieServer

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

    public func titles(ofMovies ids: [Int]) async throws(StorageError) -> [Int: MovieTitle] {
        guard !ids.isEmpty else { return [:] }
        return try await read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT id, name, year FROM movie WHERE id IN (SELECT value FROM json_each(?))",
                arguments: ["[" + ids.map(String.init).joined(separator: ",") + "]"]
            )
            return Dictionary(rows.map { (Int($0["id"] as Int64), MovieTitle(name: $0["name"], year: $0["year"])) }) { first, _ in first }
        }
    }

    public func catalogVersion() async throws(StorageError) -> Int64 {
        try await read { db in try Int64.fetchOne(db, sql: "SELECT version FROM catalog_state") ?? 0 }
    }
}
