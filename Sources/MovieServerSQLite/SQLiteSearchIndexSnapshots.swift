import Foundation
import GRDB
import MovieServer

/// The search index's snapshot in the SQLite file (``SearchIndexSnapshot``): parts of a few
/// megabytes, each written in a transaction of its own so that no write waits on a long one.
enum SQLiteSearchIndexSnapshots {
    static let table = """
        CREATE TABLE search_index_snapshot (
            version INTEGER NOT NULL, part INTEGER NOT NULL, parts INTEGER NOT NULL, data BLOB NOT NULL,
            PRIMARY KEY (version, part))
        """

    static func store(for pool: DatabasePool) -> SearchIndexSnapshotStore {
        SearchIndexSnapshotStore(
            read: { try await pool.read(read).map { ($0.version, SnapshotBytes($0.bytes)) } },
            write: { bytes, version in try await write(bytes, version: version, into: pool) },
            discard: { version in
                try await pool.write { try $0.execute(sql: "DELETE FROM search_index_snapshot WHERE version = ?", arguments: [version]) }
            }
        )
    }

    /// The snapshot of the version the file holds now, if there is one; its parts as they are,
    /// none when some are missing (then the snapshot cannot be read, and is replaced).
    static func read(_ db: Database) throws -> (version: Int64, bytes: [UInt8])? {
        let version = try SQLiteSearchEntries.version(db)
        let rows = try Row.fetchAll(db, sql: "SELECT part, parts, data FROM search_index_snapshot WHERE version = ? ORDER BY part", arguments: [version])
        guard let first = rows.first else { return nil }
        guard rows.count == first["parts"] as Int, rows.enumerated().allSatisfy({ $0.offset == $0.element["part"] as Int }) else {
            return (version, [])
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(rows.reduce(0) { $0 + ($1["data"] as Data).count })
        for row in rows { bytes += row["data"] as Data }
        return (version, bytes)
    }

    /// Keeps `bytes` as the snapshot of `version`, a part at a time; stops as soon as the file
    /// holds another version (an import came between) or another writer stored the first part
    /// (their parts must not mix), and drops every older snapshot.
    static func write(_ bytes: [UInt8], version: Int64, into pool: DatabasePool) async throws {
        let parts = SearchIndexSnapshot.parts(of: bytes)
        for (number, part) in parts.enumerated() {
            let current = try await pool.write { db -> Bool in
                guard try SQLiteSearchEntries.version(db) == version else { return false }
                if number == 0 { try db.execute(sql: "DELETE FROM search_index_snapshot WHERE version <> ?", arguments: [version]) }
                return try insert(part, number: number, of: parts.count, version: version, in: db)
            }
            guard current else { return }
        }
    }

    /// Stores the snapshot of the catalogue an import is writing, in the import's transaction,
    /// in place of any other, each part as it is made.
    static func writeForImport(version: Int64, in db: Database) throws {
        try db.execute(sql: "DELETE FROM search_index_snapshot")
        var failure: (any Error)?
        SearchIndexSnapshot.make(from: try SQLiteSearchEntries.read(db).entries) { part, number, parts in
            guard failure == nil else { return }
            do { _ = try insert(part, number: number, of: parts, version: version, in: db) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Whether the part was stored: not when another writer stored it first.
    private static func insert(_ part: ArraySlice<UInt8>, number: Int, of parts: Int, version: Int64, in db: Database) throws -> Bool {
        try db.execute(
            sql: "INSERT OR IGNORE INTO search_index_snapshot (version, part, parts, data) VALUES (?, ?, ?, ?)",
            arguments: [version, number, parts, Data(part)]
        )
        return db.changesCount == 1
    }
}
