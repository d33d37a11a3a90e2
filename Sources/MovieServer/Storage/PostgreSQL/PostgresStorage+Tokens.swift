import Foundation
import PostgresNIO

extension PostgresStorage: TokenStorage {
    public func saveRefreshToken(_ token: StoredRefreshToken) async throws(StorageError) {
        try await run { client in
            try await client.query(
                "INSERT INTO refresh_token (token_hash, client_id, expires_at) VALUES (\(ByteBuffer(bytes: token.hash)), \(token.clientID), \(token.expiresAt))",
                logger: self.logger
            )
        }
    }

    public func redeemRefreshToken(hash: [UInt8]) async throws(StorageError) -> StoredRefreshToken? {
        try await run { client in
            let rows = try await client.query(
                "DELETE FROM refresh_token WHERE token_hash = \(ByteBuffer(bytes: hash)) RETURNING client_id, expires_at",
                logger: self.logger
            ).collect()
            return try rows.first.map { row in
                let (clientID, expiresAt) = try row.decode((String, Date).self)
                return StoredRefreshToken(hash: hash, clientID: clientID, expiresAt: expiresAt)
            }
        }
    }

    public func removeRefreshTokens(expiredBefore date: Date) async throws(StorageError) {
        try await run { client in
            try await client.query("DELETE FROM refresh_token WHERE expires_at < \(date)", logger: self.logger)
        }
    }
}
