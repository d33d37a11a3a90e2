import Foundation
import MovieServer
import PostgresNIO

extension PostgresStorage: TokenStorage {
    public func saveRefreshToken(_ token: StoredRefreshToken) async throws(StorageError) {
        try await run { client in
            try await client.query(
                "INSERT INTO refresh_token (token_hash, client_id, expires_at, sign_in_id) VALUES (\(ByteBuffer(bytes: token.hash)), \(token.clientID), \(token.expiresAt), \(token.signInID))",
                logger: self.logger
            )
        }
    }

    public func redeemRefreshToken(hash: [UInt8]) async throws(StorageError) -> RefreshRedemption {
        try await run { client in
            // The UPDATE's row lock makes concurrent redemptions wait for each other: the first
            // sets used, every later one reads it set.
            let rows = try await client.allRows(
                """
                UPDATE refresh_token SET used = true FROM (SELECT token_hash, used AS was_used FROM refresh_token
                    WHERE token_hash = \(ByteBuffer(bytes: hash)) FOR UPDATE) AS before
                WHERE refresh_token.token_hash = before.token_hash
                RETURNING client_id, expires_at, sign_in_id, before.was_used
                """,
                logger: self.logger
            )
            guard let row = rows.first else { return .unknown }
            let (clientID, expiresAt, signInID, wasUsed) = try row.decode((String, Date, String?, Bool).self)
            let token = StoredRefreshToken(hash: hash, clientID: clientID, expiresAt: expiresAt, signInID: signInID)
            return wasUsed ? .reused(token) : .redeemed(token)
        }
    }

    public func revokeRefreshToken(hash: [UInt8]) async throws(StorageError) -> StoredRefreshToken? {
        try await run { client in
            let rows = try await client.allRows(
                "DELETE FROM refresh_token WHERE token_hash = \(ByteBuffer(bytes: hash)) RETURNING client_id, expires_at, sign_in_id",
                logger: self.logger
            )
            return try rows.first.map { row in
                let (clientID, expiresAt, signInID) = try row.decode((String, Date, String?).self)
                return StoredRefreshToken(hash: hash, clientID: clientID, expiresAt: expiresAt, signInID: signInID)
            }
        }
    }

    public func removeRefreshTokens(expiredBefore date: Date) async throws(StorageError) {
        try await run { client in
            try await client.query("DELETE FROM refresh_token WHERE expires_at < \(date)", logger: self.logger)
        }
    }
}
