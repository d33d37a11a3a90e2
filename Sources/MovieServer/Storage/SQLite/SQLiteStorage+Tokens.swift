import Foundation
import GRDB

extension SQLiteStorage: TokenStorage {
    public func saveRefreshToken(_ token: StoredRefreshToken) async throws(StorageError) {
        try await write { db in
            try db.execute(
                sql: "INSERT INTO refresh_token (token_hash, client_id, expires_at) VALUES (?, ?, ?)",
                arguments: [Data(token.hash), token.clientID, token.expiresAt.timeIntervalSince1970]
            )
        }
    }

    public func redeemRefreshToken(hash: [UInt8]) async throws(StorageError) -> StoredRefreshToken? {
        try await write { db in
            let row = try Row.fetchOne(
                db, sql: "DELETE FROM refresh_token WHERE token_hash = ? RETURNING client_id, expires_at", arguments: [Data(hash)]
            )
            return row.map { row in
                StoredRefreshToken(hash: hash, clientID: row["client_id"], expiresAt: Date(timeIntervalSince1970: row["expires_at"]))
            }
        }
    }

    public func removeRefreshTokens(expiredBefore date: Date) async throws(StorageError) {
        try await write { db in
            try db.execute(sql: "DELETE FROM refresh_token WHERE expires_at < ?", arguments: [date.timeIntervalSince1970])
        }
    }
}
