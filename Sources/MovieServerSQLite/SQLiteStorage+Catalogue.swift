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
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: "SELECT id, name, year FROM movie WHERE id IN (SELECT value FROM json_each(?))"),
                arguments: ["[" + ids.map(String.init).joined(separator: ",") + "]"]
            )
            var titles: [Int: MovieTitle] = [:]
            titles.reserveCapacity(ids.count)
            while let row = try rows.next() {
                titles[Int(row[0] as Int64)] = titles[Int(row[0] as Int64)] ?? MovieTitle(name: row[1], year: row[2])
            }
            return titles
        }
    }

    public func catalogVersion() async throws(StorageError) -> Int64 {
        try await read { db in try Int64.fetchOne(db, sql: "SELECT version FROM catalog_state") ?? 0 }
    }
}
