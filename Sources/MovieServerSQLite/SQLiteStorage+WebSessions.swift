import Foundation
import GRDB
import MovieServer

extension SQLiteStorage: WebSessionStorage {
    public func setWebSession(key: String, value: Data, expiresAt: Date?) async throws(StorageError) {
        try await write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO web_session (key, value, expires_at) VALUES (?, ?, ?)",
                arguments: [key, value, expiresAt?.timeIntervalSince1970]
            )
        }
    }

    public func webSession(key: String, now: Date) async throws(StorageError) -> (value: Data, expiresAt: Date?)? {
        try await read { db in
            try Row.fetchOne(
                db, sql: "SELECT value, expires_at FROM web_session WHERE key = ? AND (expires_at IS NULL OR expires_at > ?)",
                arguments: [key, now.timeIntervalSince1970]
            ).map { row in (row["value"], (row["expires_at"] as Double?).map(Date.init(timeIntervalSince1970:))) }
        }
    }

    public func removeWebSession(key: String) async throws(StorageError) {
        try await write { db in try db.execute(sql: "DELETE FROM web_session WHERE key = ?", arguments: [key]) }
    }

    public func removeWebSessions(expiredBefore date: Date) async throws(StorageError) {
        try await write { db in try db.execute(sql: "DELETE FROM web_session WHERE expires_at < ?", arguments: [date.timeIntervalSince1970]) }
    }
}
