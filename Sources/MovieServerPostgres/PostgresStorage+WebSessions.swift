import Foundation
import MovieServer
import PostgresNIO

extension PostgresStorage: WebSessionStorage {
    public func setWebSession(key: String, value: Data, expiresAt: Date?) async throws(StorageError) {
        try await run { client in
            try await client.query(
                """
                INSERT INTO web_session (key, value, expires_at) VALUES (\(key), \(ByteBuffer(bytes: value)), \(expiresAt))
                ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at
                """,
                logger: self.logger
            )
        }
    }

    public func webSession(key: String, now: Date) async throws(StorageError) -> (value: Data, expiresAt: Date?)? {
        try await run { client in
            try await client.allRows(
                "SELECT value, expires_at FROM web_session WHERE key = \(key) AND (expires_at IS NULL OR expires_at > \(now))", logger: self.logger
            ).first.map { row in
                let (value, expiresAt) = try row.decode((ByteBuffer, Date?).self)
                return (Data(value.readableBytesView), expiresAt)
            }
        }
    }

    public func removeWebSession(key: String) async throws(StorageError) {
        try await run { client in try await client.query("DELETE FROM web_session WHERE key = \(key)", logger: self.logger) }
    }

    public func removeWebSessions(expiredBefore date: Date) async throws(StorageError) {
        try await run { client in try await client.query("DELETE FROM web_session WHERE expires_at < \(date)", logger: self.logger) }
    }
}
