import Foundation
import GRDB

/// What a store holds: counts, the lists with their age, and the size on disk.
public struct StoreStatistics: Sendable, Hashable {
    /// One stored list answer.
    public struct List: Sendable, Hashable {
        public var key: String
        public var count: Int
        public var fetchedAt: Date
    }

    public var path: String
    /// The database file and its write-ahead log, in bytes.
    public var sizeInBytes: Int64
    public var movies: Int
    public var actors: Int
    public var lists: [List]

    static func read(from db: Database, url: URL) throws -> StoreStatistics {
        let lists = try Row.fetchAll(db, sql: """
            SELECT listSnapshot.query, listSnapshot.fetchedAt, COUNT(listEntry.movieId) AS count
            FROM listSnapshot LEFT JOIN listEntry ON listEntry.query = listSnapshot.query
            GROUP BY listSnapshot.query ORDER BY listSnapshot.query
            """).map { row in
            List(key: row["query"], count: row["count"], fetchedAt: Date(timeIntervalSince1970: row["fetchedAt"]))
        }
        let size = ["", "-wal"].reduce(Int64(0)) { total, suffix in
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.path + suffix)
            return total + ((attributes?[.size] as? NSNumber)?.int64Value ?? 0)
        }
        return StoreStatistics(
            path: url.path,
            sizeInBytes: size,
            movies: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM movie") ?? 0,
            actors: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM actor") ?? 0,
            lists: lists
        )
    }
}
