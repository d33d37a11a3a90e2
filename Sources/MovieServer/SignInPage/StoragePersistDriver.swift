import Foundation
import Hummingbird

/// hummingbird-auth's session store, on the server's own storage (``WebSessionStorage``): a
/// sign-in page session started on one instance is known to every instance on the database.
struct StoragePersistDriver: PersistDriver {
    let storage: any WebSessionStorage
    let now: @Sendable () -> Date

    /// One purge of expired sessions in this many writes.
    private static let purgeEvery = 256

    func create<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?) async throws {
        guard try await storage.webSession(key: key, now: now()) == nil else { throw PersistError.duplicate }
        try await set(key: key, value: value, expires: expires)
    }

    func set<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?) async throws {
        let date = now()
        if Int.random(in: 0..<Self.purgeEvery) == 0 { try await storage.removeWebSessions(expiredBefore: date) }
        try await storage.setWebSession(key: key, value: try JSONEncoder().encode(value), expiresAt: expires.map { date.addingTimeInterval($0 / .seconds(1)) })
    }

    func get<Object: Codable & Sendable>(key: String, as type: Object.Type) async throws -> Object? {
        try await getWithTTL(key: key, as: type)?.object
    }

    func getWithTTL<Object: Codable & Sendable>(key: String, as type: Object.Type) async throws -> (object: Object, ttl: Duration?)? {
        let date = now()
        guard let stored = try await storage.webSession(key: key, now: date) else { return nil }
        guard let object = try? JSONDecoder().decode(type, from: stored.value) else { throw PersistError.invalidConversion }
        return (object, stored.expiresAt.map { .seconds($0.timeIntervalSince(date)) })
    }

    func remove(key: String) async throws {
        try await storage.removeWebSession(key: key)
    }
}
