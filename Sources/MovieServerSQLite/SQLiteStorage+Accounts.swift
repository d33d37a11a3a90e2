import Foundation
import GRDB
import MovieServer

extension SQLiteStorage: AccountStorage, SignInStorage {
    public func createAccount(_ account: StoredAccount) async throws(StorageError) -> Bool {
        try await write { db in
            try db.execute(
                sql: "INSERT INTO account (name, id, password_hash, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                arguments: [account.name, account.id, account.passwordHash, account.createdAt.timeIntervalSince1970]
            )
            return db.changesCount == 1
        }
    }

    public func account(named name: String) async throws(StorageError) -> StoredAccount? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM account WHERE name = ?", arguments: [name]).map(Self.account)
        }
    }

    public func accounts() async throws(StorageError) -> [StoredAccount] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM account ORDER BY name").map(Self.account)
        }
    }

    public func setPasswordHash(_ hash: String, ofAccount name: String) async throws(StorageError) -> Bool {
        try await write { db in
            try db.execute(sql: "UPDATE account SET password_hash = ? WHERE name = ?", arguments: [hash, name])
            guard db.changesCount == 1 else { return false }
            _ = try Self.endSignIns(db, account: name, id: nil)
            try Self.withdrawApprovals(db, account: name)
            return true
        }
    }

    public func rehashPassword(ofAccount name: String, from old: String, to new: String) async throws(StorageError) -> Bool {
        try await write { db in
            try db.execute(sql: "UPDATE account SET password_hash = ? WHERE name = ? AND password_hash = ?", arguments: [new, name, old])
            return db.changesCount == 1
        }
    }

    public func removeAccount(named name: String) async throws(StorageError) -> Bool {
        try await write { db in
            guard let id = try String.fetchOne(db, sql: "DELETE FROM account WHERE name = ? RETURNING id", arguments: [name]) else { return false }
            let owner = WatchlistOwner.account(id: id)
            for table in ["watchlist_entry", "watchlist_request", "watchlist_change", "shelf_entry", "shelf_request", "shelf_change", "feed_event"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE owner = ?", arguments: [owner])
            }
            _ = try Self.endSignIns(db, account: name, id: nil)
            try Self.withdrawApprovals(db, account: name)
            return true
        }
    }

    public func saveSignIn(_ signIn: StoredSignIn) async throws(StorageError) -> Bool {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO sign_in (id, account, account_id, client_id, device_name, created_at, last_used_at)
                    SELECT ?, name, id, ?, ?, ?, ? FROM account WHERE name = ? AND id = ?
                    """,
                arguments: [
                    signIn.id, signIn.clientID, signIn.deviceName, signIn.createdAt.timeIntervalSince1970, signIn.lastUsedAt.timeIntervalSince1970,
                    signIn.account, signIn.accountID,
                ]
            )
            return db.changesCount == 1
        }
    }

    public func signIn(id: String) async throws(StorageError) -> StoredSignIn? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM sign_in WHERE id = ?", arguments: [id]).map(Self.signIn)
        }
    }

    public func signIns(ofAccount name: String) async throws(StorageError) -> [StoredSignIn] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM sign_in WHERE account = ? ORDER BY last_used_at DESC, id", arguments: [name]).map(Self.signIn)
        }
    }

    public func touchSignIn(id: String, at date: Date) async throws(StorageError) {
        try await write { db in
            try db.execute(sql: "UPDATE sign_in SET last_used_at = max(last_used_at, ?) WHERE id = ?", arguments: [date.timeIntervalSince1970, id])
        }
    }

    public func endSignIns(ofAccount name: String, id: String?) async throws(StorageError) -> Int {
        try await write { db in try Self.endSignIns(db, account: name, id: id) }
    }

    /// Denies the device authorizations the account approved and no device has redeemed yet.
    private static func withdrawApprovals(_ db: Database, account: String) throws {
        try db.execute(sql: "UPDATE device_authorization SET state = 'denied' WHERE account = ? AND state = 'approved'", arguments: [account])
    }

    /// Ends the sign-ins with their refresh tokens, and tells every instance's feed (in the same
    /// transaction), so that their streams end at once.
    private static func endSignIns(_ db: Database, account: String, id: String?) throws -> Int {
        let ended = try Row.fetchAll(
            db, sql: "DELETE FROM sign_in WHERE account = ? AND (? IS NULL OR id = ?) RETURNING id, account_id", arguments: [account, id, id]
        )
        for signIn in ended {
            try db.execute(sql: "DELETE FROM refresh_token WHERE sign_in_id = ?", arguments: [signIn["id"] as String])
        }
        let accountIDs = Set(ended.map { $0["account_id"] as String })
        try SQLiteFeed.append(accountIDs.sorted().map(NewFeedEvent.signOut), now: Date(), in: db)
        return ended.count
    }

    private static func account(_ row: Row) -> StoredAccount {
        StoredAccount(id: row["id"], name: row["name"], passwordHash: row["password_hash"], createdAt: Date(timeIntervalSince1970: row["created_at"]))
    }

    private static func signIn(_ row: Row) -> StoredSignIn {
        StoredSignIn(
            id: row["id"], account: row["account"], accountID: row["account_id"], clientID: row["client_id"], deviceName: row["device_name"],
            createdAt: Date(timeIntervalSince1970: row["created_at"]), lastUsedAt: Date(timeIntervalSince1970: row["last_used_at"])
        )
    }
}
