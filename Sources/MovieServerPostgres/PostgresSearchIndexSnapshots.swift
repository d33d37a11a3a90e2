import Logging
import MovieServer
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO

/// The search index's snapshot in PostgreSQL (``SearchIndexSnapshot``): parts of a few megabytes,
/// written in one transaction by the first instance to store that version (the others find its
/// first part and stop: parts of two writers must not mix).
enum PostgresSearchIndexSnapshots {
    static func store(for client: PostgresClient, logger: Logger) -> SearchIndexSnapshotStore {
        SearchIndexSnapshotStore(
            read: { try await read(client, logger: logger).map { ($0.version, SnapshotBytes($0.bytes)) } },
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
            let read = NIOLockedValueBox(PartsRead())
            _ = try await connection.allRows(
                "SELECT part, parts, data FROM search_index_snapshot WHERE version = \(version) ORDER BY part", logger: logger
            ) { row in
                let (part, parts, data) = try row.decode((Int, Int, ByteBuffer).self)
                read.withLockedValue { $0.add(part: part, of: parts, data) }
            }
            return read.withLockedValue { read in
                guard read.isInOrder else { return (version, []) }
                guard let total = read.total else { return nil }
                guard total == read.expected else { return (version, []) }
                return (version, read.bytes)
            }
        }
    }

    /// Keeps `bytes` as the snapshot of `version` unless the catalogue holds another version or
    /// another instance stored it first; drops every older snapshot.
    static func write(_ bytes: [UInt8], version: Int64, client: PostgresClient, logger: Logger) async throws {
        try await client.withTransaction(logger: logger) { connection in
            guard try await PostgresSearchEntries.version(connection, logger: logger) == version else { return }
            try await connection.query("DELETE FROM search_index_snapshot WHERE version <> \(version)", logger: logger)
            try await insert(bytes, version: version, on: connection, logger: logger)
        }
    }

    /// Stores the snapshot of the catalogue an import is writing, in the import's transaction, in
    /// place of any other. `alive` is called as rows arrive and, while the index is made (seconds
    /// of work that ask nothing of the database), every second, so that the import's idle limit
    /// only ends an import whose database stopped answering.
    static func writeForImport(version: Int64, on connection: PostgresConnection, logger: Logger, alive: @escaping @Sendable () -> Void) async throws {
        try await connection.query("DELETE FROM search_index_snapshot", logger: logger)
        let entries = try await PostgresSearchEntries.entries(connection, logger: logger, progress: alive)
        let making = Task { SearchIndexSnapshot.make(from: entries) }
        let heartbeat = Task {
            while !Task.isCancelled {
                alive()
                try await Task.sleep(for: .seconds(1))
            }
        }
        let bytes = await making.value
        heartbeat.cancel()
        alive()
        try await insert(bytes, version: version, on: connection, logger: logger, progress: alive)
    }

    /// Stores the parts, the first deciding: when another writer stored it, nothing more is.
    private static func insert(
        _ bytes: [UInt8], version: Int64, on connection: PostgresConnection, logger: Logger, progress: @Sendable () -> Void = {}
    ) async throws {
        let parts = SearchIndexSnapshot.parts(of: bytes)
        for (number, part) in parts.enumerated() {
            let data = ByteBuffer(bytes: part)
            progress()
            let inserted = try await connection.allRows("""
                INSERT INTO search_index_snapshot (version, part, parts, data) VALUES (\(version), \(number), \(parts.count), \(data))
                ON CONFLICT DO NOTHING RETURNING part
                """, logger: logger)
            guard !inserted.isEmpty else { return }
        }
    }
}

/// The parts of a stored snapshot as they arrive, joined while they come in their order (each is
/// let go once copied, so a snapshot is held once, not twice).
private struct PartsRead {
    var bytes: [UInt8] = []
    var expected = 0
    var total: Int?
    var isInOrder = true

    mutating func add(part: Int, of parts: Int, _ data: ByteBuffer) {
        guard isInOrder, part == expected, total == nil || total == parts else {
            isInOrder = false
            bytes = []
            return
        }
        (expected, total) = (part + 1, parts)
        bytes += data.readableBytesView
    }
}
