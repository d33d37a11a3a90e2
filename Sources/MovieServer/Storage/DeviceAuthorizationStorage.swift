import Foundation

/// The device authorizations (RFC 8628) under way: made by `POST /api/auth/device`, decided on the
/// sign-in page, polled and redeemed at the token endpoint, by any instance on the database.
public protocol DeviceAuthorizationStorage: Sendable {
    /// Adds `authorization`; `false` when its user code is already in use (the caller draws another).
    func saveDeviceAuthorization(_ authorization: StoredDeviceAuthorization) async throws(StorageError) -> Bool

    /// The authorization with this user code, whatever its state.
    func deviceAuthorization(userCode: String) async throws(StorageError) -> StoredDeviceAuthorization?

    /// Approves the pending, unexpired authorization with this user code for `account` (its name
    /// and id; only while that account exists), or denies it when `account` is nil; `false` when
    /// it is not pending any more (or expired), or the account is gone.
    func decideDeviceAuthorization(userCode: String, account: ApprovingAccount?, now: Date) async throws(StorageError) -> Bool

    /// One poll of the token endpoint, in one atomic step: the authorization as it was before the
    /// poll; its last poll becomes `now`, its interval `slowedInterval` when the poll came too
    /// soon, and an approved one becomes redeemed, so that exactly one poll gets its tokens.
    func pollDeviceAuthorization(deviceCodeHash: [UInt8], now: Date, slowDownBy: Int) async throws(StorageError) -> StoredDeviceAuthorization?

    /// Forgets authorizations that expired before `date`.
    func removeDeviceAuthorizations(expiredBefore date: Date) async throws(StorageError)
}

/// A device authorization as storage keeps it: a SHA-256 of the device code (never the code), the
/// user code the person types, the client and device that asked, and where it stands.
public struct StoredDeviceAuthorization: Sendable, Hashable {
    /// Where an authorization stands.
    public enum State: String, Sendable, Hashable {
        case pending, approved, denied, redeemed
    }

    public var deviceCodeHash: [UInt8]
    public var userCode: String
    public var clientID: String
    public var deviceName: String
    public var state: State
    /// The account that approved it: its name, and its id (an account made later under the
    /// name is another account, and redeems nothing).
    public var account: String?
    public var accountID: String?
    public var createdAt: Date
    public var expiresAt: Date
    /// Seconds a device must wait between polls; raised by each poll that came too soon.
    public var interval: Int
    public var lastPolledAt: Date?

    public init(
        deviceCodeHash: [UInt8], userCode: String, clientID: String, deviceName: String, state: State = .pending,
        account: String? = nil, accountID: String? = nil, createdAt: Date, expiresAt: Date, interval: Int, lastPolledAt: Date? = nil
    ) {
        self.deviceCodeHash = deviceCodeHash
        self.userCode = userCode
        self.clientID = clientID
        self.deviceName = deviceName
        self.state = state
        self.account = account
        self.accountID = accountID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.interval = interval
        self.lastPolledAt = lastPolledAt
    }

    /// Whether a poll at `now` came sooner than the interval after the last one.
    public func isTooSoon(_ now: Date) -> Bool {
        guard let lastPolledAt else { return false }
        return now.timeIntervalSince(lastPolledAt) < Double(interval)
    }

    /// The authorization after a poll at `now`, as ``DeviceAuthorizationStorage/pollDeviceAuthorization(deviceCodeHash:now:slowDownBy:)`` leaves it.
    public func polled(at now: Date, slowDownBy: Int) -> StoredDeviceAuthorization {
        var next = self
        if isTooSoon(now) { next.interval += slowDownBy }
        next.lastPolledAt = now
        if state == .approved, now < expiresAt { next.state = .redeemed }
        return next
    }
}

/// The account a person approves a device for: its name and its ``StoredAccount/id``.
public struct ApprovingAccount: Sendable, Hashable {
    public var name: String
    public var id: String

    public init(name: String, id: String) {
        self.name = name
        self.id = id
    }
}
