import Foundation

extension MemoryStorage: AccountStorage, SignInStorage {
    public func createAccount(_ account: StoredAccount) -> Bool {
        identity.withLockedValue { $0.add(account) }
    }

    public func account(named name: String) -> StoredAccount? {
        identity.withLockedValue { $0.accounts[name] }
    }

    public func accounts() -> [StoredAccount] {
        identity.withLockedValue { $0.accounts.values.sorted { $0.name < $1.name } }
    }

    public func setPasswordHash(_ hash: String, ofAccount name: String) -> Bool {
        identity.withLockedValue { state in
            guard state.accounts[name] != nil else { return false }
            state.setPasswordHash(hash, ofAccount: name)
            feed.append(state.endSignIns(ofAccount: name, id: nil).events, now: Date())
            state.withdrawApprovals(of: name)
            return true
        }
    }

    public func rehashPassword(ofAccount name: String, from old: String, to new: String) -> Bool {
        identity.withLockedValue { state in
            guard state.accounts[name]?.passwordHash == old else { return false }
            state.setPasswordHash(new, ofAccount: name)
            return true
        }
    }

    public func removeAccount(named name: String) -> Bool {
        identity.withLockedValue { state in
            guard let removed = state.removeAccount(named: name) else { return false }
            let owner = WatchlistOwner.account(id: removed.id)
            watchlists.remove(owner: owner)
            shelves.remove(owner: owner)
            feed.remove(owner: owner)
            feed.append(state.endSignIns(ofAccount: name, id: nil).events, now: Date())
            state.withdrawApprovals(of: name)
            return true
        }
    }

    public func saveSignIn(_ signIn: StoredSignIn) -> Bool {
        identity.withLockedValue { state in
            guard state.accounts[signIn.account]?.id == signIn.accountID else { return false }
            state.signIns[signIn.id] = signIn
            return true
        }
    }

    public func signIn(id: String) -> StoredSignIn? {
        identity.withLockedValue { $0.signIns[id] }
    }

    public func signIns(ofAccount name: String) -> [StoredSignIn] {
        identity.withLockedValue { state in
            state.signIns.values.filter { $0.account == name }.sorted { ($0.lastUsedAt, $1.id) > ($1.lastUsedAt, $0.id) }
        }
    }

    public func touchSignIn(id: String, at date: Date) {
        identity.withLockedValue { state in
            if let used = state.signIns[id]?.lastUsedAt, used < date { state.signIns[id]?.lastUsedAt = date }
        }
    }

    public func endSignIns(ofAccount name: String, id: String?) -> Int {
        identity.withLockedValue { state in
            let ended = state.endSignIns(ofAccount: name, id: id)
            feed.append(ended.events, now: Date())
            return ended.count
        }
    }

}

extension MemoryStorage: DeviceAuthorizationStorage {
    public func saveDeviceAuthorization(_ authorization: StoredDeviceAuthorization) -> Bool {
        identity.withLockedValue { state in
            state.deviceAuthorizations = state.deviceAuthorizations.filter { $0.value.expiresAt >= authorization.createdAt }
            guard !state.deviceAuthorizations.values.contains(where: { $0.userCode == authorization.userCode }),
                  state.deviceAuthorizations[authorization.deviceCodeHash] == nil
            else { return false }
            state.deviceAuthorizations[authorization.deviceCodeHash] = authorization
            return true
        }
    }

    public func deviceAuthorization(userCode: String) -> StoredDeviceAuthorization? {
        identity.withLockedValue { $0.deviceAuthorizations.values.first { $0.userCode == userCode } }
    }

    public func decideDeviceAuthorization(userCode: String, account: ApprovingAccount?, now: Date) -> Bool {
        identity.withLockedValue { state in
            guard let (hash, authorization) = state.deviceAuthorizations.first(where: { $0.value.userCode == userCode }),
                  authorization.state == .pending, authorization.expiresAt > now
            else { return false }
            if let account, state.accounts[account.name]?.id != account.id { return false }
            state.deviceAuthorizations[hash]?.state = account == nil ? .denied : .approved
            state.deviceAuthorizations[hash]?.account = account?.name
            state.deviceAuthorizations[hash]?.accountID = account?.id
            return true
        }
    }

    public func pollDeviceAuthorization(deviceCodeHash: [UInt8], now: Date, slowDownBy: Int) -> StoredDeviceAuthorization? {
        identity.withLockedValue { state in
            guard let before = state.deviceAuthorizations[deviceCodeHash] else { return nil }
            state.deviceAuthorizations[deviceCodeHash] = before.polled(at: now, slowDownBy: slowDownBy)
            return before
        }
    }

    public func removeDeviceAuthorizations(expiredBefore date: Date) {
        identity.withLockedValue { state in state.deviceAuthorizations = state.deviceAuthorizations.filter { $0.value.expiresAt >= date } }
    }
}

extension MemoryStorage: WebSessionStorage {
    public func setWebSession(key: String, value: Data, expiresAt: Date?) {
        identity.withLockedValue { $0.webSessions[key] = (value, expiresAt) }
    }

    public func webSession(key: String, now: Date) -> (value: Data, expiresAt: Date?)? {
        identity.withLockedValue { state in
            state.webSessions[key].flatMap { session in session.expiresAt.map { $0 > now } ?? true ? session : nil }
        }
    }

    public func removeWebSession(key: String) {
        _ = identity.withLockedValue { $0.webSessions.removeValue(forKey: key) }
    }

    public func removeWebSessions(expiredBefore date: Date) {
        identity.withLockedValue { state in state.webSessions = state.webSessions.filter { $0.value.expiresAt.map { $0 >= date } ?? true } }
    }
}
