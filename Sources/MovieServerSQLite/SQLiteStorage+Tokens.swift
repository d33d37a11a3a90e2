import Foundation
import GRDB
import MovieServer

extension SQLiteStorage: TokenStorage {
    public func saveRefreshToken(_ token: StoredRefreshToken) async throws(StorageError) {
        try await write { db in
            try db.execute(
                sql: "INSERT INTO refresh_token (token_hash, client_id, expires_at, sign_in_id) VALUES (?, ?, ?, ?)",
                arguments: [Data(token.hash), token.clientID, token.expiresAt.timeIntervalSince1970, token.signInID]
            )
        }
    }

    public func redeemRefreshToken(hash: [UInt8]) async throws(StorageError) -> RefreshRedemption {
        try await write { db in
            let row = try Row.fetchOne(
                db, sql: "SELECT client_id, expires_at, sign_in_id, used FROM refresh_token WHERE token_hash = ?", arguments: [Data(hash)]
            )
            guard let row else { return .unknown }
            let token = StoredRefreshToken(
                hash: hash, clientID: row["client_id"], expiresAt: Date(timeIntervalSince1970: row["expires_at"]), signInID: row["sign_in_id"]
            )
            if row["used"] as Bool { return .reused(token) }
            try db.execute(sql: "UPDATE refresh_token SET used = 1 WHERE token_hash = ?", arguments: [Data(hash)])
            return .redeemed(token)
        }
    }

    public func revokeRefreshToken(hash: [UInt8]) async throws(StorageError) -> StoredRefreshToken? {
        try await write { db in
            try Row.fetchOne(
                db, sql: "DELETE FROM refresh_token WHERE token_hash = ? RETURNING client_id, expires_at, sign_in_id", arguments: [Data(hash)]
            ).map { row in
                StoredRefreshToken(hash: hash, clientID: row["client_id"], expiresAt: Date(timeIntervalSince1970: row["expires_at"]), signInID: row["sign_in_id"])
            }
        }
    }

    public func removeRefreshTokens(expiredBefore date: Date) async throws(StorageError) {
        try await write { db in
            try db.execute(sql: "DELETE FROM refresh_token WHERE expires_at < ?", arguments: [date.timeIntervalSince1970])
        }
    }
}
