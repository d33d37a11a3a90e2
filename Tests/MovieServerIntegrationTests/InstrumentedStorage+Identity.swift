import Foundation
import MovieServer

/// Accounts, device authorizations, web sessions and attempts: the memory storage's own.
extension InstrumentedStorage {
    func createAccount(_ account: StoredAccount) async throws(StorageError) -> Bool { base.createAccount(account) }
    func account(named name: String) async throws(StorageError) -> StoredAccount? { base.account(named: name) }
    func accounts() async throws(StorageError) -> [StoredAccount] { base.accounts() }
    func setPasswordHash(_ hash: String, ofAccount name: String) async throws(StorageError) -> Bool { base.setPasswordHash(hash, ofAccount: name) }
    func removeAccount(named name: String) async throws(StorageError) -> Bool { base.removeAccount(named: name) }
    func saveSignIn(_ signIn: StoredSignIn) async throws(StorageError) -> Bool { base.saveSignIn(signIn) }
    func signIn(id: String) async throws(StorageError) -> StoredSignIn? { base.signIn(id: id) }
    func signIns(ofAccount name: String) async throws(StorageError) -> [StoredSignIn] { base.signIns(ofAccount: name) }
    func touchSignIn(id: String, at date: Date) async throws(StorageError) { base.touchSignIn(id: id, at: date) }
    func endSignIns(ofAccount name: String, id: String?) async throws(StorageError) -> Int { base.endSignIns(ofAccount: name, id: id) }
    func moveWatchlist(from owner: String, toAccount name: String) async throws(StorageError) -> Int { base.moveWatchlist(from: owner, toAccount: name) }
    func saveDeviceAuthorization(_ authorization: StoredDeviceAuthorization) async throws(StorageError) -> Bool { base.saveDeviceAuthorization(authorization) }
    func deviceAuthorization(userCode: String) async throws(StorageError) -> StoredDeviceAuthorization? { base.deviceAuthorization(userCode: userCode) }
    func decideDeviceAuthorization(userCode: String, account: ApprovingAccount?, now: Date) async throws(StorageError) -> Bool {
        base.decideDeviceAuthorization(userCode: userCode, account: account, now: now)
    }
    func pollDeviceAuthorization(deviceCodeHash: [UInt8], now: Date, slowDownBy: Int) async throws(StorageError) -> StoredDeviceAuthorization? {
        base.pollDeviceAuthorization(deviceCodeHash: deviceCodeHash, now: now, slowDownBy: slowDownBy)
    }
    func removeDeviceAuthorizations(expiredBefore date: Date) async throws(StorageError) { base.removeDeviceAuthorizations(expiredBefore: date) }
    func setWebSession(key: String, value: Data, expiresAt: Date?) async throws(StorageError) { base.setWebSession(key: key, value: value, expiresAt: expiresAt) }
    func webSession(key: String, now: Date) async throws(StorageError) -> (value: Data, expiresAt: Date?)? { base.webSession(key: key, now: now) }
    func removeWebSession(key: String) async throws(StorageError) { base.removeWebSession(key: key) }
    func removeWebSessions(expiredBefore date: Date) async throws(StorageError) { base.removeWebSessions(expiredBefore: date) }
    func countAttempt(_ limits: [AttemptLimit], id: String, now: Date, since: Date) async throws(StorageError) -> Date? {
        base.countAttempt(limits, id: id, now: now, since: since)
    }
    func forgetAttempt(id: String) async throws(StorageError) { base.forgetAttempt(id: id) }
    func pruneAttempts(before date: Date) async throws(StorageError) { base.pruneAttempts(before: date) }
}

extension InstrumentedStorage {
    func rehashPassword(ofAccount name: String, from old: String, to new: String) async throws(StorageError) -> Bool {
        base.rehashPassword(ofAccount: name, from: old, to: new)
    }
}
