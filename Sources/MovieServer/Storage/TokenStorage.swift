import Foundation

/// The refresh tokens a server issued, kept as digests so that any instance can redeem them.
public protocol TokenStorage: Sendable {
    func saveRefreshToken(_ token: StoredRefreshToken) async throws(StorageError)

    /// Removes the token with this hash and returns what it was, in one atomic step: of any number
    /// of concurrent redemptions, on any instance, exactly one gets it.
    func redeemRefreshToken(hash: [UInt8]) async throws(StorageError) -> StoredRefreshToken?

    /// Forgets refresh tokens that expired before `date`.
    func removeRefreshTokens(expiredBefore date: Date) async throws(StorageError)
}

/// A refresh token as storage keeps it: only the SHA-256 of the token, never the token.
public struct StoredRefreshToken: Sendable, Hashable {
    public var hash: [UInt8]
    public var clientID: String
    public var expiresAt: Date

    public init(hash: [UInt8], clientID: String, expiresAt: Date) {
        self.hash = hash
        self.clientID = clientID
        self.expiresAt = expiresAt
    }
}
