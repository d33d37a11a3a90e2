import Foundation
import GRDB

/// What a store holds: for each API its movies and lists with their age, and the size on disk.
public struct StoreStatistics: Sendable, Hashable {
    /// One stored list answer.
    public struct List: Sendable, Hashable {
        public var key: String
        public var count: Int
        public var fetchedAt: Date
    }

    /// What the store holds for one API.
    public struct API: Sendable, Hashable {
        public var key: String
        public var movies: Int
        /// The actors in this API's casts (an actor in several APIs' casts counts in each).
        public var actors: Int
        public var lists: [List]
    }

    public var path: String
    /// The database file and its write-ahead log, in bytes.
    public var sizeInBytes: Int64
    /// The database's pages, in bytes: the file's size once its log is written back into it.
    public var databaseBytes: Int64
    /// The bytes of the database's pages that hold data (the rest are free for reuse): what the
    /// budget bounds.
    public var usedBytes: Int64
    /// The most the store may hold.
    public var budget: StoreBudget
    /// The actors stored, each once, whichever APIs' casts they are in.
    public var actors: Int
    /// The APIs with stored data, by key.
    public var apis: [API]

    public var movies: Int { apis.reduce(0) { $0 + $1.movies } }

    static func read(from db: Database, url: URL, budget: StoreBudget) throws -> StoreStatistics {
        let lists = try Row.fetchAll(db, sql: """
            SELECT api.key AS api, listSnapshot.query, listSnapshot.fetchedAt, COUNT(listEntry.movieId) AS count
            FROM listSnapshot JOIN api ON api.id = listSnapshot.apiId
            LEFT JOIN listEntry ON listEntry.apiId = listSnapshot.apiId AND listEntry.query = listSnapshot.query
            GROUP BY listSnapshot.apiId, listSnapshot.query ORDER BY api.key, listSnapshot.query
            """)
        let listsByAPI = try Dictionary(grouping: lists) { row -> String in row["api"] }.mapValues { rows in
            try rows.map { row in List(key: row["query"], count: row["count"], fetchedAt: try MovieReading.date(row["fetchedAt"])) }
        }
        let moviesByAPI = try Row.fetchAll(db, sql: "SELECT api.key AS api, COUNT(*) AS count FROM movie JOIN api ON api.id = movie.apiId GROUP BY movie.apiId")
            .reduce(into: [String: Int]()) { $0[$1["api"]] = $1["count"] }
        let actorsByAPI = try Row.fetchAll(db, sql: """
            SELECT api.key AS api, COUNT(DISTINCT castMember.actorId) AS count
            FROM castMember JOIN api ON api.id = castMember.apiId GROUP BY castMember.apiId
            """).reduce(into: [String: Int]()) { $0[$1["api"]] = $1["count"] }
        let keys = Set(listsByAPI.keys).union(moviesByAPI.keys).sorted()
        let size = ["", "-wal"].reduce(Int64(0)) { total, suffix in
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.path + suffix)
            return total + ((attributes?[.size] as? NSNumber)?.int64Value ?? 0)
        }
        return StoreStatistics(
            path: url.path,
            sizeInBytes: size,
            databaseBytes: try StoreUsage.read(in: db).fileBytes,
            usedBytes: try StoreUsage.read(in: db).usedBytes,
            budget: budget,
            actors: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM actor") ?? 0,
            apis: keys.map { API(key: $0, movies: moviesByAPI[$0] ?? 0, actors: actorsByAPI[$0] ?? 0, lists: listsByAPI[$0] ?? []) }
        )
    }
}
