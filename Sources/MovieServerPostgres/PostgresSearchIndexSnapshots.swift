import Logging
import MovieServer
import NIOCore
import PostgresNIO

/// The search index's snapshot in PostgreSQL (``SearchIndexSnapshot``): parts of a few megabytes,
/// written in one transaction by the first instance to store that version (the others find its
/// first part and stop: parts of two writers must not mix).
enum PostgresSearchIndexSnapshots {
    static func store(for client: PostgresClient, logger: Logger) -> SearchIndexSnapshotStore {
        SearchIndexSnapshotStore(
            read: { try await read(client, logger: logger) },
            write: { bytes, version in try await write(bytes, version: version, client: client, logger: logger) },
            discard: { version in
                try await client.query("DELETE FROM search_index_snapshot WHERE version = \(version)", logger: logger)
            }
        )
    }

    /// The snapshot of the version the catalogue holds now, if there is one; none of its bytes when
    /// some parts are missing (then it cannot be read, and is replaced).
    static func read(_ client: PostgresClient, logger: Logger) async throws -> (version: Int64, bytes: [UInt8])? {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
            let version = try await PostgresSearchEntries.version(connection, logger: logger)
            let rows = try await connection.query(
                "SELECT part, parts, data FROM search_index_snapshot WHERE version = \(version) ORDER BY part", logger: logger
            )
            var bytes: [UInt8] = []
            var expected = 0, total: Int?
            for try await (part, parts, data) in rows.decode((Int, Int, ByteBuffer).self) {
                guard part == expected, total == nil || total == parts else { return (version, []) }
                (expected, total) = (part + 1, parts)
                bytes += data.readableBytesView
            }
            guard let total else { return nil }
            guard total == expected else { return (version, []) }
            return (version, bytes)
        }
    }

    /// Keeps `bytes` as the snapshot of `version` unless the catalogue holds another version or
    /// another instance stored it first; drops every older snapshot.
    static func write(_ bytes: [UInt8], version: Int64, client: PostgresClient, logger: Logger) async throws {
        let size = SearchIndexSnapshot.partSize
        let parts = max(1, (bytes.count + size - 1) / size)
        try await client.withTransaction(logger: logger) { connection in
            guard try await PostgresSearchEntries.version(connection, logger: logger) == version else { return }
            try await connection.query("DELETE FROM search_index_snapshot WHERE version <> \(version)", logger: logger)
            for part in 0..<parts {
                let data = ByteBuffer(bytes: bytes[min(bytes.count, part * size)..<min(bytes.count, (part + 1) * size)])
                let inserted = try await connection.query("""
                    INSERT INTO search_index_snapshot (version, part, parts, data) VALUES (\(version), \(part), \(parts), \(data))
                    ON CONFLICT DO NOTHING RETURNING part
                    """, logger: logger).collect()
                guard !inserted.isEmpty else { return }
            }
        }
    }
}
