import Foundation

/// What proves the app may use the API: an access token, the refresh token that renews it,
/// and when the access token stops being valid.
///
/// Its descriptions never show the tokens, so a credential can be logged or printed safely.
public struct Credential: Sendable, Hashable, Codable {
    public var accessToken: String
    public var refreshToken: String?
    /// When the credential was obtained.
    public var issuedAt: Date
    /// When the server stops accepting the access token.
    public var expiresAt: Date

    public init(accessToken: String, refreshToken: String?, issuedAt: Date, expiresAt: Date) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
    }

    /// How long before its expiry a credential is renewed, at most: the clock-skew leeway the
    /// server also allows past `exp`, so that neither side's clock decides alone.
    public static let renewalLeeway: TimeInterval = 60

    /// Whether the access token is expired at `date`, or close enough to expiry that it should be
    /// renewed before use: within a tenth of its lifetime, and at most ``renewalLeeway``.
    public func needsRenewal(at date: Date) -> Bool {
        let lifetime = max(0, expiresAt.timeIntervalSince(issuedAt))
        let margin = min(Self.renewalLeeway, lifetime / 10)
        return date >= expiresAt.addingTimeInterval(-margin)
    }
}

extension Credential: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "Credential(expires: \(expiresAt), refreshable: \(refreshToken != nil))"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["issuedAt": issuedAt, "expiresAt": expiresAt, "refreshable": refreshToken != nil])
    }
}
