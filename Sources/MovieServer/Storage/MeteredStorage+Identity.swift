import Foundation

extension MeteredStorage {
    func createAccount(_ account: StoredAccount) async throws(StorageError) -> Bool {
        try await observe("create_account") { () async throws(StorageError) in try await base.createAccount(account) }
    }

    func account(named name: String) async throws(StorageError) -> StoredAccount? {
        try await observe("account") { () async throws(StorageError) in try await base.account(named: name) }
    }

    func accounts() async throws(StorageError) -> [StoredAccount] {
        try await observe("accounts") { () async throws(StorageError) in try await base.accounts() }
    }

    func setPasswordHash(_ hash: String, ofAccount name: String) async throws(StorageError) -> Bool {
        try await observe("set_password") { () async throws(StorageError) in try await base.setPasswordHash(hash, ofAccount: name) }
    }

    func rehashPassword(ofAccount name: String, from old: String, to new: String) async throws(StorageError) -> Bool {
        try await observe("rehash_password") { () async throws(StorageError) in try await base.rehashPassword(ofAccount: name, from: old, to: new) }
    }

    func removeAccount(named name: String) async throws(StorageError) -> Bool {
        try await observe("remove_account") { () async throws(StorageError) in try await base.removeAccount(named: name) }
    }

    func saveSignIn(_ signIn: StoredSignIn) async throws(StorageError) -> Bool {
        try await observe("save_sign_in") { () async throws(StorageError) in try await base.saveSignIn(signIn) }
    }

    func signIn(id: String) async throws(StorageError) -> StoredSignIn? {
        try await observe("sign_in") { () async throws(StorageError) in try await base.signIn(id: id) }
    }

    func signIns(ofAccount name: String) async throws(StorageError) -> [StoredSignIn] {
        try await observe("sign_ins") { () async throws(StorageError) in try await base.signIns(ofAccount: name) }
    }

    func touchSignIn(id: String, at date: Date) async throws(StorageError) {
        try await observe("touch_sign_in") { () async throws(StorageError) in try await base.touchSignIn(id: id, at: date) }
    }

    func endSignIns(ofAccount name: String, id: String?) async throws(StorageError) -> Int {
        try await observe("end_sign_ins") { () async throws(StorageError) in try await base.endSignIns(ofAccount: name, id: id) }
    }

    func moveWatchlist(from owner: String, toAccount name: String) async throws(StorageError) -> Int {
        try await observe("move_watchlist") { () async throws(StorageError) in try await base.moveWatchlist(from: owner, toAccount: name) }
    }

    func saveDeviceAuthorization(_ authorization: StoredDeviceAuthorization) async throws(StorageError) -> Bool {
        try await observe("save_device_authorization") { () async throws(StorageError) in try await base.saveDeviceAuthorization(authorization) }
    }

    func deviceAuthorization(userCode: String) async throws(StorageError) -> StoredDeviceAuthorization? {
        try await observe("device_authorization") { () async throws(StorageError) in try await base.deviceAuthorization(userCode: userCode) }
    }

    func decideDeviceAuthorization(userCode: String, account: ApprovingAccount?, now: Date) async throws(StorageError) -> Bool {
        try await observe("decide_device_authorization") { () async throws(StorageError) in
            try await base.decideDeviceAuthorization(userCode: userCode, account: account, now: now)
        }
    }

    func pollDeviceAuthorization(deviceCodeHash: [UInt8], now: Date, slowDownBy: Int) async throws(StorageError) -> StoredDeviceAuthorization? {
        try await observe("poll_device_authorization") { () async throws(StorageError) in
            try await base.pollDeviceAuthorization(deviceCodeHash: deviceCodeHash, now: now, slowDownBy: slowDownBy)
        }
    }

    func removeDeviceAuthorizations(expiredBefore date: Date) async throws(StorageError) {
        try await observe("purge_device_authorizations") { () async throws(StorageError) in try await base.removeDeviceAuthorizations(expiredBefore: date) }
    }

    func setWebSession(key: String, value: Data, expiresAt: Date?) async throws(StorageError) {
        try await observe("set_web_session") { () async throws(StorageError) in try await base.setWebSession(key: key, value: value, expiresAt: expiresAt) }
    }

    func webSession(key: String, now: Date) async throws(StorageError) -> (value: Data, expiresAt: Date?)? {
        try await observe("web_session") { () async throws(StorageError) in try await base.webSession(key: key, now: now) }
    }

    func removeWebSession(key: String) async throws(StorageError) {
        try await observe("remove_web_session") { () async throws(StorageError) in try await base.removeWebSession(key: key) }
    }

    func removeWebSessions(expiredBefore date: Date) async throws(StorageError) {
        try await observe("purge_web_sessions") { () async throws(StorageError) in try await base.removeWebSessions(expiredBefore: date) }
    }
}

extension MeteredStorage {
    func countAttempt(_ limits: [AttemptLimit], id: String, now: Date, since: Date) async throws(StorageError) -> Date? {
        try await observe("count_attempt") { () async throws(StorageError) in try await base.countAttempt(limits, id: id, now: now, since: since) }
    }

    func forgetAttempt(id: String) async throws(StorageError) {
        try await observe("forget_attempt") { () async throws(StorageError) in try await base.forgetAttempt(id: id) }
    }

    func pruneAttempts(before date: Date) async throws(StorageError) {
        try await observe("prune_attempts") { () async throws(StorageError) in try await base.pruneAttempts(before: date) }
    }
}
