import Foundation
import MovieServer
import PostgresNIO

extension PostgresStorage: AccountStorage, SignInStorage {
    public func createAccount(_ account: StoredAccount) async throws(StorageError) -> Bool {
        try await run { client in
            let rows = try await client.allRows(
                "INSERT INTO account (name, id, password_hash, created_at) VALUES (\(account.name), \(account.id), \(account.passwordHash), \(account.createdAt)) ON CONFLICT DO NOTHING RETURNING name",
                logger: self.logger
            )
            return !rows.isEmpty
        }
    }

    public func account(named name: String) async throws(StorageError) -> StoredAccount? {
        try await run { client in
            try await client.allRows("SELECT id, name, password_hash, created_at FROM account WHERE name = \(name)", logger: self.logger).first.map(Self.account)
        }
    }

    public func accounts() async throws(StorageError) -> [StoredAccount] {
        try await run { client in
            try await client.allRows("SELECT id, name, password_hash, created_at FROM account ORDER BY name", logger: self.logger).map(Self.account)
        }
    }

    public func setPasswordHash(_ hash: String, ofAccount name: String) async throws(StorageError) -> Bool {
        try await run { client in
            try await client.withTransaction(logger: self.logger) { connection in
                let rows = try await connection.allRows(
                    "UPDATE account SET password_hash = \(hash) WHERE name = \(name) RETURNING name", logger: self.logger
                )
                guard !rows.isEmpty else { return false }
                _ = try await Self.endSignIns(connection, account: name, id: nil, logger: self.logger)
                try await Self.withdrawApprovals(connection, account: name, logger: self.logger)
                return true
            }
        }
    }

    public func rehashPassword(ofAccount name: String, from old: String, to new: String) async throws(StorageError) -> Bool {
        try await run { client in
            try await !client.allRows(
                "UPDATE account SET password_hash = \(new) WHERE name = \(name) AND password_hash = \(old) RETURNING name", logger: self.logger
            ).isEmpty
        }
    }

    public func removeAccount(named name: String) async throws(StorageError) -> Bool {
        try await run { client in
            try await client.withTransaction(logger: self.logger) { connection in
                let rows = try await connection.allRows("SELECT id FROM account WHERE name = \(name) FOR UPDATE", logger: self.logger)
                guard let id = try rows.first?.decode(String.self) else { return false }
                let owner = WatchlistOwner.account(id: id)
                for table in ["watchlist_entry", "watchlist_request", "watchlist_change", "shelf_entry", "shelf_request", "shelf_change", "feed_event"] {
                    try await connection.query("DELETE FROM \(unescaped: table) WHERE owner = \(owner)", logger: self.logger)
                }
                // The sign-ins before the account, with their refresh tokens: the account's row
                // would take the rest of its sign-ins with it (the foreign key), but not their
                // tokens, nor tell the feed.
                _ = try await Self.endSignIns(connection, account: name, id: nil, logger: self.logger)
                try await Self.withdrawApprovals(connection, account: name, logger: self.logger)
                try await connection.query("DELETE FROM account WHERE id = \(id)", logger: self.logger)
                return true
            }
        }
    }

    public func saveSignIn(_ signIn: StoredSignIn) async throws(StorageError) -> Bool {
        try await run { client in
            do {
                return try await !client.allRows(
                """
                INSERT INTO sign_in (id, account, account_id, client_id, device_name, created_at, last_used_at)
                SELECT \(signIn.id), name, id, \(signIn.clientID), \(signIn.deviceName), \(signIn.createdAt), \(signIn.lastUsedAt)
                FROM account WHERE name = \(signIn.account) AND id = \(signIn.accountID)
                RETURNING id
                """,
                logger: self.logger
                ).isEmpty
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == Self.foreignKeyViolation {
                // The account was removed while the sign-in was saved.
                return false
            }
        }
    }

    private static let foreignKeyViolation = "23503"

    public func signIn(id: String) async throws(StorageError) -> StoredSignIn? {
        try await run { client in
            try await client.allRows("SELECT \(unescaped: Self.signInColumns) FROM sign_in WHERE id = \(id)", logger: self.logger).first.map(Self.signIn)
        }
    }

    public func signIns(ofAccount name: String) async throws(StorageError) -> [StoredSignIn] {
        try await run { client in
            try await client.allRows(
                "SELECT \(unescaped: Self.signInColumns) FROM sign_in WHERE account = \(name) ORDER BY last_used_at DESC, id", logger: self.logger
            ).map(Self.signIn)
        }
    }

    public func touchSignIn(id: String, at date: Date) async throws(StorageError) {
        try await run { client in
            try await client.query("UPDATE sign_in SET last_used_at = greatest(last_used_at, \(date)) WHERE id = \(id)", logger: self.logger)
        }
    }

    public func endSignIns(ofAccount name: String, id: String?) async throws(StorageError) -> Int {
        try await run { client in
            try await client.withTransaction(logger: self.logger) { connection in
                try await Self.endSignIns(connection, account: name, id: id, logger: self.logger)
            }
        }
    }

    private static let signInColumns = "id, account, account_id, client_id, device_name, created_at, last_used_at"

    /// Denies the device authorizations the account approved and no device has redeemed yet.
    private static func withdrawApprovals(_ connection: PostgresConnection, account: String, logger: Logger) async throws {
        try await connection.query("UPDATE device_authorization SET state = 'denied' WHERE account = \(account) AND state = 'approved'", logger: logger)
    }

    /// Ends the sign-ins with their refresh tokens, and tells every instance's feed (at the
    /// transaction's commit), so that their streams end at once.
    private static func endSignIns(_ connection: PostgresConnection, account: String, id: String?, logger: Logger) async throws -> Int {
        let ended = try await connection.allRows(
            "DELETE FROM sign_in WHERE account = \(account) AND (\(id)::text IS NULL OR id = \(id)) RETURNING id, account_id", logger: logger
        ).map { try $0.decode((String, String).self) }
        if !ended.isEmpty {
            try await connection.query("DELETE FROM refresh_token WHERE sign_in_id = ANY(\(ended.map(\.0)))", logger: logger)
        }
        let accountIDs = Set(ended.map(\.1))
        try await PostgresFeed.append(accountIDs.sorted().map(NewFeedEvent.signOut), now: Date(), on: connection, logger: logger)
        return ended.count
    }

    private static func account(_ row: PostgresRow) throws -> StoredAccount {
        let (id, name, hash, createdAt) = try row.decode((String, String, String, Date).self)
        return StoredAccount(id: id, name: name, passwordHash: hash, createdAt: createdAt)
    }

    private static func signIn(_ row: PostgresRow) throws -> StoredSignIn {
        let (id, account, accountID, clientID, deviceName, createdAt, lastUsedAt) = try row.decode((String, String, String, String, String, Date, Date).self)
        return StoredSignIn(id: id, account: account, accountID: accountID, clientID: clientID, deviceName: deviceName, createdAt: createdAt, lastUsedAt: lastUsedAt)
    }
}
