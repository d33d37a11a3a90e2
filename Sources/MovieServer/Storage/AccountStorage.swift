import Foundation

/// The people who may sign in: what the sign-in page and `marquee accounts` read and write, and
/// what the device flow checks. Each device they signed in on is ``SignInStorage``'s; their
/// watchlists, ``WatchlistStorage``'s.
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

    /// Replaces the account's password hash `old` with `new`, the same password hashed again
    /// (another cost), without ending any sign-in; `false` when the hash is not `old` any more.
    func rehashPassword(ofAccount name: String, from old: String, to new: String) async throws(StorageError) -> Bool

    /// Removes the account, its watchlist (entries, kept answers, log), its events in the feed's
    /// log, its sign-ins and their refresh tokens, and its device approvals not yet redeemed, in
    /// one step; `false` when there is no such account.
    func removeAccount(named name: String) async throws(StorageError) -> Bool
}

/// An account as storage keeps it: an id of its own, its name and a bcrypt hash of its password,
/// never the password.
///
/// The id, not the name, keys what is the account's (its watchlist, its feed events, its
/// sign-ins): a name is given again once its account is removed, an id never is, so nothing of a
/// removed account can reach the next owner of its name.
public struct StoredAccount: Sendable, Hashable {
    public var id: String
    public var name: String
    public var passwordHash: String
    public var createdAt: Date

    public init(id: String = StoredAccount.newID(), name: String, passwordHash: String, createdAt: Date) {
        self.id = id
        self.name = name
        self.passwordHash = passwordHash
        self.createdAt = createdAt
    }

    /// A new account id: 128 random bits in hex, never given to two accounts in practice.
    public static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}

/// One device signed in to an account (a session): which client, under what name, when it
/// signed in and when it was last used. Its refresh tokens name it; ending it ends them.
public struct StoredSignIn: Sendable, Hashable {
    public var id: String
    public var account: String
    /// The ``StoredAccount/id`` of the account, which keys what the sign-in reads and writes.
    public var accountID: String
    public var clientID: String
    public var deviceName: String
    public var createdAt: Date
    public var lastUsedAt: Date

    public init(id: String, account: String, accountID: String, clientID: String, deviceName: String, createdAt: Date, lastUsedAt: Date) {
        self.id = id
        self.account = account
        self.accountID = accountID
        self.clientID = clientID
        self.deviceName = deviceName
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}
