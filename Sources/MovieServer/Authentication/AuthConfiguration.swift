import Crypto
import Foundation

/// How a ``MovieServer`` authenticates its clients.
public struct AuthConfiguration: Sendable {
    /// Whether the movie endpoints require a bearer token. `false` serves them openly, like the original site.
    public var requiresToken: Bool
    public var client: ClientCredentials
    /// How long an access token is valid.
    public var accessTokenLifetime: Duration
    /// How long an unused refresh token is valid.
    public var refreshTokenLifetime: Duration
    /// The HMAC keys access tokens are signed with (the newest) and accepted from (any).
    public var signingKeys: SigningKeyRing
    /// The server's clock; tests move it to expire tokens without waiting.
    public var now: @Sendable () -> Date
    /// Who issues the tokens (`iss`) and the API they are for (`aud`): a token of another issuer
    /// or audience is refused even when signed with the same key.
    public var issuer: String
    public var audience: String

    public init(
        requiresToken: Bool = true,
        client: ClientCredentials = .development,
        accessTokenLifetime: Duration = ServerSetting.accessTokenLifetime.defaultDuration,
        refreshTokenLifetime: Duration = .seconds(30 * 24 * 3600),
        signingKey: SymmetricKey? = nil,
        signingKeys: SigningKeyRing? = nil,
        now: @escaping @Sendable () -> Date = { Date() },
        issuer: String = "marquee-movie-api",
        audience: String = "marquee-movie-api"
    ) {
        self.issuer = issuer
        self.audience = audience
        self.requiresToken = requiresToken
        self.client = client
        self.accessTokenLifetime = accessTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
        self.signingKeys = signingKeys
            ?? signingKey.map { key in try! SigningKeyRing([SigningKey(id: "key", key: key)]) }
            ?? .random()
        self.now = now
    }

    /// Movie endpoints open to anyone; the token endpoint still works.
    public static var publicAccess: AuthConfiguration { AuthConfiguration(requiresToken: false) }
}
