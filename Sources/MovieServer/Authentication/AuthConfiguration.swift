import Crypto
import Foundation

/// How a ``MovieServer`` authenticates its clients.
public struct AuthConfiguration: Sendable {
    /// Whether the movie endpoints require a bearer token. `false` serves them openly, like the original site.
    public var requiresToken: Bool
    /// The client applications allowed to obtain tokens; a token's subject is one of their ids,
    /// and names the owner of a watchlist.
    public var clients: [ClientCredentials]
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
        otherClients: [ClientCredentials] = [],
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
        clients = [client] + otherClients
        self.accessTokenLifetime = accessTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
        self.signingKeys = signingKeys
            ?? signingKey.map { key in try! SigningKeyRing([SigningKey(id: "key", key: key)]) }
            ?? .random()
        self.now = now
    }

    /// The clients admitted, for the start-up line: their ids, the first few of a long list.
    public var clientSummary: String {
        let ids = clients.prefix(3).map(\.id).joined(separator: ", ")
        return clients.count > 3 ? "clients \(ids) and \(clients.count - 3) more" : clients.count == 1 ? "client id \(ids)" : "clients \(ids)"
    }

    /// Whether `id` is one of the clients' ids, compared in constant time for each.
    func knowsClient(id: String) -> Bool {
        clients.reduce(false) { known, client in client.matches(id: id) || known }
    }

    /// Whether `id` and `secret` are one client's, compared in constant time for each.
    func knowsClient(id: String, secret: String) -> Bool {
        client(id: id, secret: secret) != nil
    }

    /// The client whose id and secret these are, every client compared in constant time.
    func client(id: String, secret: String) -> ClientCredentials? {
        clients.reduce(nil) { found, client in client.matches(id: id, secret: secret) ? client : found }
    }

    /// Movie endpoints open to anyone; the token endpoint still works.
    public static var publicAccess: AuthConfiguration { AuthConfiguration(requiresToken: false) }
}
