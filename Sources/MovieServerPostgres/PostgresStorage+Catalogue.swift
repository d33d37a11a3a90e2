import MovieContract
import MovieServer
import PostgresNIO

extension PostgresStorage: CatalogueStorage {
    public func movie(id: Int) async throws(StorageError) -> CatalogMovie? {
        try await run { client in
            try await PostgresCatalogQueries.movies(
                client, "SELECT id, name, year, release_date, grossing, rating FROM movie WHERE id = \(id)", logger: self.logger
            ).first
        }
    }

    public func topMovies(_ order: TopListOrder, year: Int, limit: Int) async throws(StorageError) -> [CatalogMovie] {
        let column = order == .grossing ? "grossing" : "rating"
        return try await run { client in
            try await PostgresCatalogQueries.movies(
                client,
                "SELECT id, name, year, release_date, grossing, rating FROM movie WHERE year = \(year) ORDER BY \(unescaped: column) DESC, id DESC LIMIT \(limit)",
                logger: self.logger
            )
        }
    }

    public func titles(ofMovies ids: [Int]) async throws(StorageError) -> [Int: MovieTitle] {
        guard !ids.isEmpty else { return [:] }
        return try await run { client in
            var titles: [Int: MovieTitle] = [:]
            for row in try await client.allRows("SELECT id, name, year FROM movie WHERE id = ANY(\(ids.map(Int64.init))::bigint[])", logger: self.logger) {
                let (id, name, year) = try row.decode((Int64, String, Int).self)
                titles[Int(id)] = MovieTitle(name: name, year: year)
            }
            return titles
        }
    }

    public func catalogVersion() async throws(StorageError) -> Int64 {
        try await run { client in
            try await client.allRows("SELECT version FROM catalog_state", logger: self.logger).first?.decode(Int64.self) ?? 0
        }
    }
}
