import Foundation
import PostgresNIO

extension PostgresStorage: AttemptStorage {
    public func countAttempt(_ limits: [AttemptLimit], id: String, now: Date, since: Date) async throws(StorageError) -> Date? {
        try await run { client in
            try await client.withTransaction(logger: self.logger) { connection -> Date? in
                // One key's count and insert at a time across instances: the keys' locks are taken
                // in one order, so two attempts that share keys never wait for each other in a ring.
                for key in Set(limits.map(\.key)).sorted() {
                    try await connection.query("SELECT pg_advisory_xact_lock(\(Self.attemptLockSpace), hashtext(\(key)))", logger: self.logger)
                }
                var oldestBlocking: Date?
                for limit in limits {
                    let row = try await connection.query(
                        "SELECT count(*), min(at) FROM sign_in_attempt WHERE key = \(limit.key) AND at > \(since)", logger: self.logger
                    ).collect().first
                    if let (count, oldest) = try row?.decode((Int, Date?).self), count >= limit.limit, let oldest {
                        oldestBlocking = max(oldestBlocking ?? oldest, oldest)
                    }
                }
                if oldestBlocking != nil { return oldestBlocking }
                for limit in limits {
                    try await connection.query("INSERT INTO sign_in_attempt (key, id, at) VALUES (\(limit.key), \(id), \(now))", logger: self.logger)
                }
                return nil
            }
        }
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
