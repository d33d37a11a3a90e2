import Foundation
import GRDB
import MovieServer

extension SQLiteStorage: DeviceAuthorizationStorage {
    public func saveDeviceAuthorization(_ authorization: StoredDeviceAuthorization) async throws(StorageError) -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM device_authorization WHERE expires_at < ?", arguments: [authorization.createdAt.timeIntervalSince1970])
            try db.execute(
                sql: """
                    INSERT INTO device_authorization
                        (device_code_hash, user_code, client_id, device_name, state, account, created_at, expires_at, interval, last_polled_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                    """,
                arguments: Self.arguments(authorization)
            )
            return db.changesCount == 1
        }
    }

    public func deviceAuthorization(userCode: String) async throws(StorageError) -> StoredDeviceAuthorization? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM device_authorization WHERE user_code = ?", arguments: [userCode]).map(Self.authorization)
        }
    }

    public func decideDeviceAuthorization(userCode: String, account: ApprovingAccount?, now: Date) async throws(StorageError) -> Bool {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE device_authorization SET state = ?, account = ?, account_id = ?
                    WHERE user_code = ? AND state = 'pending' AND expires_at > ?
                        AND (? IS NULL OR EXISTS (SELECT 1 FROM account WHERE name = ? AND id = ?))
                    """,
                arguments: [
                    account == nil ? "denied" : "approved", account?.name, account?.id, userCode, now.timeIntervalSince1970,
                    account?.id, account?.name, account?.id,
                ]
            )
            return db.changesCount == 1
        }
    }

    public func pollDeviceAuthorization(deviceCodeHash: [UInt8], now: Date, slowDownBy: Int) async throws(StorageError) -> StoredDeviceAuthorization? {
        try await write { db in
            guard let before = try Row.fetchOne(
                db, sql: "SELECT * FROM device_authorization WHERE device_code_hash = ?", arguments: [Data(deviceCodeHash)]
            ).map(Self.authorization) else { return nil }
            let after = before.polled(at: now, slowDownBy: slowDownBy)
            try db.execute(
                sql: "UPDATE device_authorization SET state = ?, interval = ?, last_polled_at = ? WHERE device_code_hash = ?",
                arguments: [after.state.rawValue, after.interval, now.timeIntervalSince1970, Data(deviceCodeHash)]
            )
            return before
        }
    }

    public func removeDeviceAuthorizations(expiredBefore date: Date) async throws(StorageError) {
        try await write { db in
            try db.execute(sql: "DELETE FROM device_authorization WHERE expires_at < ?", arguments: [date.timeIntervalSince1970])
        }
    }

    private static func arguments(_ authorization: StoredDeviceAuthorization) -> StatementArguments {
        [
            Data(authorization.deviceCodeHash), authorization.userCode, authorization.clientID, authorization.deviceName,
            authorization.state.rawValue, authorization.account, authorization.createdAt.timeIntervalSince1970,
            authorization.expiresAt.timeIntervalSince1970, authorization.interval, authorization.lastPolledAt?.timeIntervalSince1970,
        ]
    }

    private static func authorization(_ row: Row) -> StoredDeviceAuthorization {
        StoredDeviceAuthorization(
            deviceCodeHash: Array(row["device_code_hash"] as Data), userCode: row["user_code"], clientID: row["client_id"],
            deviceName: row["device_name"], state: StoredDeviceAuthorization.State(rawValue: row["state"]) ?? .denied,
            account: row["account"], accountID: row["account_id"], createdAt: Date(timeIntervalSince1970: row["created_at"]),
            expiresAt: Date(timeIntervalSince1970: row["expires_at"]), interval: row["interval"],
            lastPolledAt: (row["last_polled_at"] as Double?).map(Date.init(timeIntervalSince1970:))
        )
    }
}
