import Foundation

/// The refresh tokens a server issued, kept as digests so that any instance can redeem them.
public protocol TokenStorage: Sendable {
    func saveRefreshToken(_ token: StoredRefreshToken) async throws(StorageError)

    /// Marks the token with this hash used and returns what it was, in one atomic step: of any
    /// number of concurrent redemptions, on any instance, exactly one gets ``RefreshRedemption/redeemed(_:)``;
    /// the others, and any later one, get ``RefreshRedemption/reused(_:)`` until the token expires.
    func redeemRefreshToken(hash: [UInt8]) async throws(StorageError) -> RefreshRedemption

    /// Removes the token with this hash, used or not, and returns what it was.
    func revokeRefreshToken(hash: [UInt8]) async throws(StorageError) -> StoredRefreshToken?

    /// Forgets refresh tokens that expired before `date`.
    func removeRefreshTokens(expiredBefore date: Date) async throws(StorageError)
}

/// What became of a refresh token presented for redemption.
public enum RefreshRedemption: Sendable, Hashable {
    /// Unknown: never issued, expired and forgotten, revoked, or its sign-in ended.
    case unknown
    /// Redeemed now, by this request only.
    case redeemed(StoredRefreshToken)
    /// Redeemed before: a copy is in other hands (RFC 9700 §4.14.2).
    case reused(StoredRefreshToken)
}

/// A refresh token as storage keeps it: only the SHA-256 of the token, never the token.
public struct StoredRefreshToken: Sendable, Hashable {
    public var hash: [UInt8]
    public var clientID: String
    public var expiresAt: Date
    /// The sign-in (a person's device) whose chain this token continues; nil for a client's own.
    public var signInID: String?

    public init(hash: [UInt8], clientID: String, expiresAt: Date, signInID: String? = nil) {
        self.hash = hash
        self.clientID = clientID
        self.expiresAt = expiresAt
        self.signInID = signInID
    }
}
