import Foundation

/// The sign-in page's cookie sessions, as hummingbird-auth's session middleware keeps them
/// (through a persist driver of the server's): an opaque value under a key, until it expires.
public protocol WebSessionStorage: Sendable {
    /// Stores `value` under `key` until `expiresAt` (for good when nil), replacing what was there.
    func setWebSession(key: String, value: Data, expiresAt: Date?) async throws(StorageError)

    /// The value under `key` and when it expires, unless it has expired by `now`.
    func webSession(key: String, now: Date) async throws(StorageError) -> (value: Data, expiresAt: Date?)?

    func removeWebSession(key: String) async throws(StorageError)

    /// Forgets sessions that expired before `date`.
    func removeWebSessions(expiredBefore date: Date) async throws(StorageError)
}
