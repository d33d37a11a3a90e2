import Crypto
import Foundation
import Hummingbird

/// hummingbird-auth's session store, on the server's own storage (``WebSessionStorage``): a
/// sign-in page session started on one instance is known to every instance on the database.
/// A session is stored under a SHA-256 of its cookie's key, so a copy of the table signs no one in.
///
/// A storage failure is the `503` every other failed request gets, not an unexpected error.
struct StoragePersistDriver: PersistDriver {
    let storage: any WebSessionStorage
    let now: @Sendable () -> Date

    /// One purge of expired sessions in this many writes.
    private static let purgeEvery = 256

    func create<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?) async throws {
        let stored = Self.storedKey(key)
        guard try await answering({ () async throws(StorageError) in try await storage.webSession(key: stored, now: now()) }) == nil else { throw PersistError.duplicate }
        try await set(key: key, value: value, expires: expires)
    }

    func set<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?) async throws {
        let key = Self.storedKey(key)
        let date = now()
        if Int.random(in: 0..<Self.purgeEvery) == 0 { try await answering { () async throws(StorageError) in try await storage.removeWebSessions(expiredBefore: date) } }
        let data = try JSONEncoder().encode(value)
        try await answering { () async throws(StorageError) in
            try await storage.setWebSession(key: key, value: data, expiresAt: expires.map { date.addingTimeInterval($0 / .seconds(1)) })
        }
    }

    func get<Object: Codable & Sendable>(key: String, as type: Object.Type) async throws -> Object? {
        try await getWithTTL(key: key, as: type)?.object
    }

    func getWithTTL<Object: Codable & Sendable>(key: String, as type: Object.Type) async throws -> (object: Object, ttl: Duration?)? {
        let key = Self.storedKey(key)
        let date = now()
        guard let stored = try await answering({ () async throws(StorageError) in try await storage.webSession(key: key, now: date) }) else { return nil }
        guard let object = try? JSONDecoder().decode(type, from: stored.value) else { throw PersistError.invalidConversion }
        return (object, stored.expiresAt.map { .seconds($0.timeIntervalSince(date)) })
    }

    func remove(key: String) async throws {
        let key = Self.storedKey(key)
        try await answering { () async throws(StorageError) in try await storage.removeWebSession(key: key) }
    }

    /// What a key is stored under: its prefix (`page.`) and a SHA-256 of the rest, in base64url.
    static func storedKey(_ key: String) -> String {
        let prefix = key.prefix { $0 != "." }
        return prefix + ".sha256:" + Data(SHA256.hash(data: Data(key.utf8))).base64URLEncoded
    }
}
