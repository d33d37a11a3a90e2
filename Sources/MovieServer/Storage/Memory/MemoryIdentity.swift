import Foundation

/// What a ``MemoryStorage`` knows of people and tokens, behind one lock so that each change
/// (an account removed with its sign-ins and their tokens) is made whole.
struct MemoryIdentity: Sendable {
    var refreshTokens: [[UInt8]: (token: StoredRefreshToken, used: Bool)] = [:]
    /// The accounts by name; changed only through ``add(_:)``, ``removeAccount(named:)`` and
    /// ``setPasswordHash(_:ofAccount:)``, which keep ``accountIDs`` with them.
    private(set) var accounts: [String: StoredAccount] = [:]
    /// The ids of ``accounts``: what every watchlist write checks, without a scan of them all.
    private(set) var accountIDs: Set<String> = []
    var signIns: [String: StoredSignIn] = [:]
    var deviceAuthorizations: [[UInt8]: StoredDeviceAuthorization] = [:]
    var webSessions: [String: (value: Data, expiresAt: Date?)] = [:]

    /// Adds `account`, unless its name or its id is taken.
    mutating func add(_ account: StoredAccount) -> Bool {
        guard accounts[account.name] == nil, !accountIDs.contains(account.id) else { return false }
        accounts[account.name] = account
        accountIDs.insert(account.id)
        return true
    }

    /// Removes the account named `name`, and returns it.
    mutating func removeAccount(named name: String) -> StoredAccount? {
        guard let removed = accounts.removeValue(forKey: name) else { return nil }
        accountIDs.remove(removed.id)
        return removed
    }

    mutating func setPasswordHash(_ hash: String, ofAccount name: String) {
        accounts[name]?.passwordHash = hash
    }

    /// Denies the device authorizations the account approved and no device has redeemed yet.
    mutating func withdrawApprovals(of name: String) {
        for (hash, authorization) in deviceAuthorizations where authorization.account == name && authorization.state == .approved {
            deviceAuthorizations[hash]?.state = .denied
        }
    }

    /// Ends the sign-ins with their refresh tokens; the events that tell the feed of it.
    mutating func endSignIns(ofAccount name: String, id: String?) -> (count: Int, events: [NewFeedEvent]) {
        let ending = signIns.values.filter { $0.account == name && (id == nil || $0.id == id) }
        for signIn in ending { signIns[signIn.id] = nil }
        let ended = Set(ending.map(\.id))
        refreshTokens = refreshTokens.filter { $0.value.token.signInID.map { !ended.contains($0) } ?? true }
        return (ending.count, Set(ending.map(\.accountID)).sorted().map(NewFeedEvent.signOut))
    }
}
