import Foundation

/// The accounts of a server: made, checked, changed and removed with their rules (``AccountName``,
/// ``PasswordRule``) and bcrypt (``PasswordHasher``). The sign-in page and `marquee accounts` both
/// go through it.
public struct Accounts: Sendable {
    let storage: any AccountStorage & WatchlistStorage
    public let hasher: PasswordHasher
    let now: @Sendable () -> Date

    public init(storage: any AccountStorage & WatchlistStorage, hasher: PasswordHasher, now: @escaping @Sendable () -> Date = { Date() }) {
        self.storage = storage
        self.hasher = hasher
        self.now = now
    }

    /// Makes an account; throws ``AccountError/nameTaken(_:)`` when the name is in use.
    @discardableResult
    public func create(name typed: String, password: String) async throws(AccountError) -> AccountName {
        try AccountName(try await made(name: typed, password: password).name)
    }

    /// Makes an account and returns it as stored, so that whoever made it can be signed in to it
    /// without checking the password they just chose a second time.
    func made(name typed: String, password: String) async throws(AccountError) -> StoredAccount {
        let name = try AccountName(typed)
        try PasswordRule.check(password, accountName: name.value)
        let hash = try await hash(PasswordRule.normalized(password))
        let account = StoredAccount(name: name.value, passwordHash: hash, createdAt: now())
        let created = try await storing { () async throws(StorageError) in try await storage.createAccount(account) }
        guard created else { throw .nameTaken(name.value) }
        return account
    }

    /// Replaces the password; every device signed in to the account is signed out.
    public func setPassword(name typed: String, password: String) async throws(AccountError) {
        let name = try AccountName(typed)
        try PasswordRule.check(password, accountName: name.value)
        let hash = try await hash(PasswordRule.normalized(password))
        guard try await storing({ () async throws(StorageError) in try await storage.setPasswordHash(hash, ofAccount: name.value) }) else {
            throw .unknownAccount(name.value)
        }
    }

    /// Removes the account with its watchlist and sign-ins.
    public func remove(name typed: String) async throws(AccountError) {
        let name = try AccountName(typed)
        guard try await storing({ () async throws(StorageError) in try await storage.removeAccount(named: name.value) }) else {
            throw .unknownAccount(name.value)
        }
    }

    public func list() async throws(AccountError) -> [StoredAccount] {
        try await storing { () async throws(StorageError) in try await storage.accounts() }
    }

    /// Gives the watchlist kept under a client id before accounts to the account; how many entries moved.
    public func moveWatchlist(fromClient clientID: String, to typed: String) async throws(AccountError) -> Int {
        let name = try AccountName(typed)
        guard try await storing({ () async throws(StorageError) in try await storage.account(named: name.value) }) != nil else {
            throw .unknownAccount(name.value)
        }
        return try await storing { () async throws(StorageError) in try await storage.moveWatchlist(from: clientID, toAccount: name.value) }
    }

    /// The account whose name and password these are, or nil: an unknown name and a wrong
    /// password take as long as each other (``PasswordHasher/verify(_:hash:)``)
    /// and give the same nil. The password is read as ``PasswordRule/normalized(_:)``; one longer
    /// than bcrypt reads never matches. A hash of another cost than the server's, or of a password
    /// stored before it was normalized, is made again from the password just checked.
    public func authenticate(name typed: String, password: String) async throws(AccountError) -> StoredAccount? {
        let name = try? AccountName(typed)
        let account = try await name.asyncMap { name async throws(AccountError) in
            try await storing { () async throws(StorageError) in try await storage.account(named: name.value) }
        } ?? nil
        let normalized = PasswordRule.normalized(password)
        let readable = normalized.utf8.count <= PasswordRule.maximumBytes
        do {
            guard try await hasher.verify(readable ? normalized : "", hash: account?.passwordHash), readable, var account else {
                // A password kept from before normalization was hashed as it was typed: checked
                // too, against the stand-in when there is no account, so that a typed form that
                // normalization changes takes as long for an unknown name as for a real one.
                guard readable, !normalized.utf8.elementsEqual(password.utf8), password.utf8.count <= PasswordRule.maximumBytes,
                      try await hasher.verify(password, hash: account?.passwordHash), var account
                else { return nil }
                account.passwordHash = try await rehash(account, password: normalized)
                return account
            }
            if PasswordHasher.cost(of: account.passwordHash) != hasher.cost {
                account.passwordHash = try await rehash(account, password: normalized)
            }
            return account
        } catch let error as AccountError {
            throw error
        } catch {
            throw .busy
        }
    }

    /// Replaces the account's hash with one of `password` at the server's cost, unless the hash
    /// changed meanwhile; the new hash (or the one kept).
    private func rehash(_ account: StoredAccount, password: String) async throws(AccountError) -> String {
        let hash = try await hash(password)
        let replaced = try await storing { () async throws(StorageError) in
            try await storage.rehashPassword(ofAccount: account.name, from: account.passwordHash, to: hash)
        }
        return replaced ? hash : account.passwordHash
    }

    private func hash(_ password: String) async throws(AccountError) -> String {
        do { return try await hasher.hash(password) } catch { throw .busy }
    }

    private func storing<T>(_ body: () async throws(StorageError) -> T) async throws(AccountError) -> T {
        do { return try await body() } catch { throw .storage(error) }
    }
}

private extension Optional {
    func asyncMap<U>(_ transform: (Wrapped) async throws(AccountError) -> U) async throws(AccountError) -> U? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
