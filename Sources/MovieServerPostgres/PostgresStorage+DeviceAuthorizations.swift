import Foundation
import MovieServer
import PostgresNIO

extension PostgresStorage: DeviceAuthorizationStorage {
    public func saveDeviceAuthorization(_ authorization: StoredDeviceAuthorization) async throws(StorageError) -> Bool {
        try await run { client in
            try await client.query("DELETE FROM device_authorization WHERE expires_at < \(authorization.createdAt)", logger: self.logger)
            let rows = try await client.allRows(
                """
                INSERT INTO device_authorization
                    (device_code_hash, user_code, client_id, device_name, state, account, created_at, expires_at, interval, last_polled_at)
                VALUES (\(ByteBuffer(bytes: authorization.deviceCodeHash)), \(authorization.userCode), \(authorization.clientID),
                    \(authorization.deviceName), \(authorization.state.rawValue), \(authorization.account), \(authorization.createdAt),
                    \(authorization.expiresAt), \(authorization.interval), \(authorization.lastPolledAt))
                ON CONFLICT DO NOTHING RETURNING user_code
                """,
                logger: self.logger
            )
            return !rows.isEmpty
        }
    }

    public func deviceAuthorization(userCode: String) async throws(StorageError) -> StoredDeviceAuthorization? {
        try await run { client in
            try await client.allRows("SELECT \(unescaped: Self.columns) FROM device_authorization WHERE user_code = \(userCode)", logger: self.logger).first.map(Self.authorization)
        }
    }

    public func decideDeviceAuthorization(userCode: String, account: ApprovingAccount?, now: Date) async throws(StorageError) -> Bool {
        try await run { client in
            let rows = try await client.allRows(
                """
                UPDATE device_authorization SET state = \(account == nil ? "denied" : "approved"), account = \(account?.name), account_id = \(account?.id)
                WHERE user_code = \(userCode) AND state = 'pending' AND expires_at > \(now)
                    AND (\(account?.id)::text IS NULL OR EXISTS (SELECT 1 FROM account WHERE name = \(account?.name) AND id = \(account?.id)))
                RETURNING user_code
                """,
                logger: self.logger
            )
            return !rows.isEmpty
        }
    }

    public func pollDeviceAuthorization(deviceCodeHash: [UInt8], now: Date, slowDownBy: Int) async throws(StorageError) -> StoredDeviceAuthorization? {
        try await run { client in
            try await client.withTransaction(logger: self.logger) { connection in
                guard let before = try await connection.allRows(
                    "SELECT \(unescaped: Self.columns) FROM device_authorization WHERE device_code_hash = \(ByteBuffer(bytes: deviceCodeHash)) FOR UPDATE",
                    logger: self.logger
                ).first.map(Self.authorization) else { return nil }
                let after = before.polled(at: now, slowDownBy: slowDownBy)
                try await connection.query(
                    """
                    UPDATE device_authorization SET state = \(after.state.rawValue), interval = \(after.interval), last_polled_at = \(now)
                    WHERE device_code_hash = \(ByteBuffer(bytes: deviceCodeHash))
                    """,
                    logger: self.logger
                )
                return before
            }
        }
    }

    public func removeDeviceAuthorizations(expiredBefore date: Date) async throws(StorageError) {
        try await run { client in
            try await client.query("DELETE FROM device_authorization WHERE expires_at < \(date)", logger: self.logger)
        }
    }

    private static let columns = "device_code_hash, user_code, client_id, device_name, state, account, account_id, created_at, expires_at, interval, last_polled_at"

    private static func authorization(_ row: PostgresRow) throws -> StoredDeviceAuthorization {
        let (hash, userCode, clientID, deviceName, state, account, accountID, createdAt, expiresAt, interval, lastPolledAt) =
            try row.decode((ByteBuffer, String, String, String, String, String?, String?, Date, Date, Int, Date?).self)
        return StoredDeviceAuthorization(
            deviceCodeHash: Array(hash.readableBytesView), userCode: userCode, clientID: clientID, deviceName: deviceName,
            state: StoredDeviceAuthorization.State(rawValue: state) ?? .denied, account: account, accountID: accountID, createdAt: createdAt,
            expiresAt: expiresAt, interval: interval, lastPolledAt: lastPolledAt
        )
    }
}
