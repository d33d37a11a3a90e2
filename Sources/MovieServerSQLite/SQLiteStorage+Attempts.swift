import Foundation
import GRDB
import MovieServer

extension SQLiteStorage: AttemptStorage {
    public func countAttempt(_ limits: [AttemptLimit], id: String, now: Date, since: Date) async throws(StorageError) -> Date? {
        // A key already full is refused by a read: a flood of refused attempts does not queue for the writer.
        let full = try await read { db in try Self.fullest(limits, since: since, in: db) }
        if let full { return full }
        return try await write { db in
            if let full = try Self.fullest(limits, since: since, in: db) { return full }
            let insert = try db.cachedStatement(sql: "INSERT INTO sign_in_attempt (key, id, at) VALUES (?, ?, ?)")
            for limit in limits {
                try insert.execute(arguments: [limit.key, id, now.timeIntervalSince1970])
            }
            return nil
        }
    }

    /// The oldest attempt in the window of the latest-freed full key among `limits`, if one is full.
    private static func fullest(_ limits: [AttemptLimit], since: Date, in db: Database) throws -> Date? {
        var oldestBlocking: Double?
        for limit in limits {
            let row = try Row.fetchOne(
                db, sql: "SELECT count(*) AS attempts, min(at) AS oldest FROM sign_in_attempt WHERE key = ? AND at > ?",
                arguments: [limit.key, since.timeIntervalSince1970]
            )
            if let row, (row["attempts"] as Int) >= limit.limit, let oldest = row["oldest"] as Double? {
                oldestBlocking = max(oldestBlocking ?? oldest, oldest)
            }
        }
        return oldestBlocking.map(Date.init(timeIntervalSince1970:))
    }

    public func forgetAttempt(id: String) async throws(StorageError) {
        try await write { db in try db.execute(sql: "DELETE FROM sign_in_attempt WHERE id = ?", arguments: [id]) }
    }

    public func pruneAttempts(before date: Date) async throws(StorageError) {
        try await write { db in try db.execute(sql: "DELETE FROM sign_in_attempt WHERE at < ?", arguments: [date.timeIntervalSince1970]) }
    }
}
