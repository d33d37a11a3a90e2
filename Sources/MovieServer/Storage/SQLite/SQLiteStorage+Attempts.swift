import Foundation
import GRDB

extension SQLiteStorage: AttemptStorage {
    public func countAttempt(_ limits: [AttemptLimit], id: String, now: Date, since: Date) async throws(StorageError) -> Date? {
        try await write { db in
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
            if let oldestBlocking { return Date(timeIntervalSince1970: oldestBlocking) }
            let insert = try db.cachedStatement(sql: "INSERT INTO sign_in_attempt (key, id, at) VALUES (?, ?, ?)")
            for limit in limits {
                try insert.execute(arguments: [limit.key, id, now.timeIntervalSince1970])
            }
            return nil
        }
    }

    public func forgetAttempt(id: String) async throws(StorageError) {
        try await write { db in try db.execute(sql: "DELETE FROM sign_in_attempt WHERE id = ?", arguments: [id]) }
    }

    public func pruneAttempts(before date: Date) async throws(StorageError) {
        try await write { db in try db.execute(sql: "DELETE FROM sign_in_attempt WHERE at < ?", arguments: [date.timeIntervalSince1970]) }
    }
}
