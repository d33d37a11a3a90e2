import Foundation

/// The people who may sign in, and each device they signed in on: what the device flow, the
/// sign-in page, `marquee accounts` and `/api/account/sessions` read and write.
public protocol AccountStorage: Sendable {
    /// Adds `account`; `false` when the name is taken.
    func createAccount(_ account: StoredAccount) async throws(StorageError) -> Bool

    func account(named name: String) async throws(StorageError) -> StoredAccount?

    /// Every account, by name.
    func accounts() async throws(StorageError) -> [StoredAccount]

    /// Replaces the account's password hash and ends every sign-in it had (their refresh tokens
    /// go with them) and every device approval not yet redeemed, in one step; `false` when there
    /// is no such account.
    func setPasswordHash(_ hash: String, ofAccount name: String) async throws(StorageError) -> Bool

    /// Removes the account, its watchlist (entries, kept answers, log), its sign-ins and their
    /// refresh tokens, and its device approvals not yet redeemed, in one step; `false` when there
    /// is no such account.
    func removeAccount(named name: String) async throws(StorageError) -> Bool

    /// Records a device signed in to an account.
    func saveSignIn(_ signIn: StoredSignIn) async throws(StorageError)

    /// The sign-in with this id, if it has not ended.
    func signIn(id: String) async throws(StorageError) -> StoredSignIn?

    /// The account's sign-ins, the most recently used first.
    func signIns(ofAccount name: String) async throws(StorageError) -> [StoredSignIn]

    /// Notes that the sign-in was used at `date`.
    func touchSignIn(id: String, at date: Date) async throws(StorageError)

    /// Ends the account's sign-in `id`, or all of them when `id` is nil, with their refresh
    /// tokens; returns how many ended.
    func endSignIns(ofAccount name: String, id: String?) async throws(StorageError) -> Int

    /// Gives the watchlist of `owner` (a list kept before accounts, under a client id) to the
    /// account's list: per movie the later change wins, and `owner`'s list is then empty.
    /// Returns how many entries moved.
    func moveWatchlist(from owner: String, toAccount name: String) async throws(StorageError) -> Int
}

/// An account as storage keeps it: its name and a bcrypt hash of its password, never the password.
public struct StoredAccount: Sendable, Hashable {
    public var name: String
    public var passwordHash: String
    public var createdAt: Date

    public init(name: String, passwordHash: String, createdAt: Date) {
        self.name = name
        self.passwordHash = passwordHash
        self.createdAt = createdAt
    }
}

/// One device signed in to an account (a session): which client, under what name, when it
/// signed in and when it was last used. Its refresh tokens name it; ending it ends them.
public struct StoredSignIn: Sendable, Hashable {
    public var id: String
    public var account: String
    public var clientID: String
    public var deviceName: String
    public var createdAt: Date
    public var lastUsedAt: Date

    public init(id: String, account: String, clientID: String, deviceName: String, createdAt: Date, lastUsedAt: Date) {
        self.id = id
        self.account = account
        self.clientID = clientID
        self.deviceName = deviceName
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}
