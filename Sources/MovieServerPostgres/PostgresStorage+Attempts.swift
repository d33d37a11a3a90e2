import Foundation
import MovieServer
import PostgresNIO

extension PostgresStorage: AttemptStorage {
    public func countAttempt(_ limits: [AttemptLimit], id: String, now: Date, since: Date) async throws(StorageError) -> Date? {
        let keys = limits.map(\.key)
        return try await run { client -> Date? in
            // A key already full is refused without a lock or a transaction: a flood of refused
            // attempts holds no connection longer than one read.
            if let full = try await Self.fullest(limits, since: since, on: client, logger: self.logger) { return full }
            return try await client.withTransaction(logger: self.logger) { connection -> Date? in
                // Each key's count and insert one attempt at a time across instances. The locks are
                // taken in the order of their hashes, so two attempts that share keys never wait
                // for each other in a ring (two keys of one hash are one lock, taken twice).
                _ = try await connection.allRows(
                    """
                    SELECT pg_advisory_xact_lock(\(Self.attemptLockSpace), hashtext(key))
                    FROM (SELECT DISTINCT unnest(\(keys)::text[]) AS key) AS keys ORDER BY hashtext(key)
                    """,
                    logger: self.logger
                )
                if let full = try await Self.fullest(limits, since: since, on: connection, logger: self.logger) { return full }
                try await connection.query(
                    "INSERT INTO sign_in_attempt (key, id, at) SELECT unnest(\(keys)::text[]), \(id), \(now)", logger: self.logger
                )
                return nil
            }
        }
    }

    /// The oldest attempt in the window of the latest-freed full key among `limits`, if one is full.
    private static func fullest(_ limits: [AttemptLimit], since: Date, on connection: some PostgresQueryRunning, logger: Logger) async throws -> Date? {
        let rows = try await connection.runQuery(
            "SELECT key, count(*), min(at) FROM sign_in_attempt WHERE key = ANY(\(limits.map(\.key))::text[]) AND at > \(since) GROUP BY key",
            logger: logger
        )
        var oldestBlocking: Date?
        for row in rows {
            let (key, count, oldest) = try row.decode((String, Int, Date).self)
            if let limit = limits.first(where: { $0.key == key }), count >= limit.limit {
                oldestBlocking = max(oldestBlocking ?? oldest, oldest)
            }
        }
        return oldestBlocking
    }

    public func forgetAttempt(id: String) async throws(StorageError) {
        try await run { client in try await client.query("DELETE FROM sign_in_attempt WHERE id = \(id)", logger: self.logger) }
    }

    public func pruneAttempts(before date: Date) async throws(StorageError) {
        try await run { client in try await client.query("DELETE FROM sign_in_attempt WHERE at < \(date)", logger: self.logger) }
    }

    /// The first half of the attempt locks' advisory keys: Marquee's attempt counts (the second
    /// half is the key's hash).
    private static let attemptLockSpace: Int32 = 0x4D41_5451
}

/// What can run a query and hand back its rows: a client (any pooled connection) or one
/// connection (inside a transaction).
protocol PostgresQueryRunning {
    func runQuery(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow]
}

extension PostgresClient: PostgresQueryRunning {
    func runQuery(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        try await self.allRows(query, logger: logger)
    }
}

extension PostgresConnection: PostgresQueryRunning {
    func runQuery(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        try await self.allRows(query, logger: logger)
    }
}
