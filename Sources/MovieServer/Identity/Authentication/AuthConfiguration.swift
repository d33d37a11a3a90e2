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
    /// How long a device code (RFC 8628) may wait for a person's approval.
    public var deviceCodeLifetime: Duration = .seconds(600)
    /// Seconds a device waits between polls at first (RFC 8628 §3.2 `interval`).
    public var devicePollInterval = 5
    /// Whether a person may create an account on the sign-in page; an operator always may, with
    /// `marquee accounts add`.
    public var allowsSignUp = true
    /// Where people reach the server (`https://movies.example.com`), for the sign-in page's
    /// address in device authorizations and the metadata, and to mark its cookie `Secure` when it
    /// is https. Unset, the address is the request's `Host` over http, when it names this machine
    /// (``localNames``); another `Host` is refused.
    public var publicURL: String?
    /// The names a request's `Host` may give when there is no ``publicURL``.
    public var localNames = LocalNames.machine
    /// How many failed sign-ins one address may make on the page in ten minutes before it must
    /// wait (`429`); an account may have twice as many, from any addresses.
    public var signInLimit = 10
    /// How far the server's clock may be from the issuer's: a token is accepted this long past
    /// its `exp` (and before its `nbf`), and an event stream ends this long after its token's `exp`.
    public var clockSkewLeeway: TimeInterval = TokenService.clockSkewLeeway
    /// The bcrypt cost of a new password hash (see ``PasswordHasher``).
    public var passwordHashCost: UInt8 = PasswordHasher.defaultCost

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

    /// The server's address as people reach it, for a request that came with `host`: the public
    /// URL, else the `Host` over http when it names this machine; else the 400 to send back.
    func baseURL(host: String?) throws(ErrorAnswer) -> String {
        if let publicURL { return publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL }
        guard let host, localNames.contains(authority: host) else {
            throw ErrorAnswer(.badRequest, code: "invalid_request", message: "The Host header names no address of this server; its operator sets the address people reach it at with --public-url.")
        }
        return "http://\(host)"
    }

    /// Movie endpoints open to anyone; the token endpoint still works.
    public static var publicAccess: AuthConfiguration { AuthConfiguration(requiresToken: false) }
}
