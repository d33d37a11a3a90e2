import Crypto
import Foundation
import JWTKit
import Logging

/// Issues and checks tokens: signed access tokens that need no server state, and single-use
/// refresh tokens, kept in the server's storage, that are replaced on every use. A client gets
/// its own tokens (client credentials); a person's come through the device flow (RFC 8628)
/// and name their account and sign-in.
public final class TokenService: Sendable {
    public let configuration: AuthConfiguration
    /// How many tokens were granted, by grant type.
    public let ledger: GrantLedger
    /// One collection per key id, each holding only its key: JWTKit falls back to a default key
    /// for an unknown `kid`, and a token naming no listed key must be refused.
    private let keysByID: [String: JWTKeyCollection]
    private let refreshTokens: RefreshTokens
    /// The device authorizations (RFC 8628) the token endpoint redeems.
    let deviceFlow: DeviceFlow
    let storage: any TokenStorage & AccountStorage & SignInStorage & DeviceAuthorizationStorage
    private let metrics: ServerMetrics?
    private let verified = VerifiedAccessTokens()

    public init(
        configuration: AuthConfiguration,
        storage: any TokenStorage & AccountStorage & SignInStorage & DeviceAuthorizationStorage,
        metrics: ServerMetrics? = nil
    ) async {
        self.configuration = configuration
        self.ledger = GrantLedger()
        self.metrics = metrics
        self.storage = storage
        self.refreshTokens = RefreshTokens(storage: storage)
        self.deviceFlow = DeviceFlow(storage: storage, configuration: configuration)
        var keysByID: [String: JWTKeyCollection] = [:]
        for key in configuration.signingKeys.keys {
            keysByID[key.id] = await JWTKeyCollection().add(hmac: HMACKey(key: key.key), digestAlgorithm: .sha256)
        }
        self.keysByID = keysByID
    }

    /// Answers a token request, or throws the RFC 6749 error to send back.
    func grant(_ request: TokenRequest, basicCredentials: (id: String, secret: String)?, logger: Logger) async throws(ErrorAnswer) -> TokenResponse {
        do {
            let (type, client, signIn) = try await authorize(request, basicCredentials: basicCredentials)
            let clientID = client.id
            let response = try await issueTokens(for: client, signIn: signIn)
            let counts = ledger.recordGrant(type)
            metrics?.recordGrant(type)
            let whom = signIn.map { "\($0.account) through \(clientID)" } ?? clientID
            logger.notice("granted tokens to \(whom) by \(type.rawValue) (grants: \(counts))")
            return response
        } catch {
            // A device told to keep waiting was not refused anything.
            if error.code == "authorization_pending" || error.code == "slow_down" { throw error }
            let counts = ledger.recordRefusal()
            metrics?.recordRefusedGrant()
            logger.notice("refused token request: \(error.code) (grants: \(counts))")
            throw error
        }
    }

    /// The client a request authenticates as (HTTP Basic, or `client_id` and `client_secret` in the
    /// body), or the 401 to send back.
    func authenticateClient(_ request: TokenRequest, basicCredentials: (id: String, secret: String)?) throws(ErrorAnswer) -> ClientCredentials {
        let presented = basicCredentials ?? request.client_id.map { ($0, request.client_secret ?? "") }
        guard let presented, let client = configuration.client(id: presented.0, secret: presented.1) else {
            throw .tokenRequest(.unauthorized, "invalid_client", "The client id or secret is not valid.", headers: [.wwwAuthenticate: AuthenticationChallenge.basic])
        }
        return client
    }

    /// RFC 7009: ends what the refresh token in `request` belongs to, if the authenticated client
    /// holds it; an access token, or a token unknown here, changes nothing (and is no error).
    func revoke(_ request: TokenRequest, basicCredentials: (id: String, secret: String)?, logger: Logger) async throws(ErrorAnswer) {
        let client = try authenticateClient(request, basicCredentials: basicCredentials)
        guard let token = request.token, !token.isEmpty else {
            throw .tokenRequest(.badRequest, "invalid_request", "The token parameter is missing.")
        }
        try await refreshTokens.revoke(token, presentedBy: client)
        logger.notice("revoked a token of \(client.id)")
    }

    /// A person's sign-in, still on, or the 401 to send back; nil for an application's token,
    /// which has none to check. An access token outlives the sign-in it came from by at most its
    /// lifetime, and what is personal is refused at once.
    @discardableResult
    func confirmSignedIn(_ identity: AccessTokenIdentity) async throws(ErrorAnswer) -> StoredSignIn? {
        guard let id = identity.signInID else { return nil }
        let signIn: StoredSignIn?
        signIn = try await answering { () async throws(StorageError) in try await storage.signIn(id: id) }
        guard let signIn, signIn.account == identity.subject else {
            throw .invalidToken("The sign-in this token belongs to has ended; sign in again.")
        }
        return signIn
    }

    /// How far the server's clock may be from the issuer's unless configured otherwise
    /// (``AuthConfiguration/clockSkewLeeway``): a token is accepted up to this long after its
    /// `exp` and this long before its `nbf`.
    public static let clockSkewLeeway: TimeInterval = 60

    /// The client an access token was issued to, or the 401 to send back.
    ///
    /// The header must name the server's algorithm (``TokenHeader/algorithm``), a listed key, and
    /// no critical extension; then the signature, the times (with ``clockSkewLeeway``) and the
    /// issuer, audience and client are checked. A token that passed before and has not expired is
    /// accepted from ``VerifiedAccessTokens`` without all that.
    func verifyAccessToken(_ token: String) async throws(ErrorAnswer) -> AccessTokenIdentity {
        if let identity = verified.identity(of: token, now: configuration.now()) { return identity }
        guard let header = TokenHeader.read(token), let keyID = header.kid else {
            throw .invalidToken("The access token is malformed or names no signing key.")
        }
        guard header.alg == TokenHeader.algorithm else {
            throw .invalidToken("The access token names an algorithm this server does not sign with.")
        }
        guard header.crit == nil else {
            throw .invalidToken("The access token has critical header extensions this server does not understand.")
        }
        guard let keys = keysByID[keyID] else {
            throw .invalidToken("The access token was signed with a key this server does not accept.")
        }
        let payload: AccessTokenPayload
        do {
            payload = try await keys.verify(token, as: AccessTokenPayload.self)
        } catch {
            throw .invalidToken("The access token is malformed or its signature is not valid.")
        }
        let now = configuration.now()
        guard Self.isSane(payload.exp.value), payload.nbf.map({ Self.isSane($0.value) }) ?? true else {
            throw .invalidToken("The access token's times are out of range.")
        }
        let leeway = configuration.clockSkewLeeway
        guard payload.exp.value.addingTimeInterval(leeway) > now else {
            throw .invalidToken("The access token expired; get a new one from /api/auth/token.")
        }
        if let notBefore = payload.nbf?.value, notBefore.addingTimeInterval(-leeway) > now {
            throw .invalidToken("The access token is not valid yet.")
        }
        guard payload.iss.value == configuration.issuer, payload.aud.value.contains(configuration.audience),
              configuration.knowsClient(id: payload.clientID), payload.sid != nil || payload.sub.value == payload.clientID
        else {
            throw .invalidToken("The access token was not issued by this server for this client.")
        }
        let acceptedUntil = payload.exp.value.addingTimeInterval(leeway)
        let identity = AccessTokenIdentity(subject: payload.sub.value, clientID: payload.clientID, signInID: payload.sid, acceptedUntil: acceptedUntil)
        verified.remember(token, identity: identity, expiresAt: acceptedUntil, now: now)
        return identity
    }

    /// A time from 1970 to the year 9999, as a token's claims must be.
    private static func isSane(_ date: Date) -> Bool {
        (0...253_402_300_799).contains(date.timeIntervalSince1970)
    }

    /// Whether `token` passed ``verifyAccessToken(_:)`` before and has not expired since: an
    /// answer without waiting, for the event loop; `false` sends the request the long way.
    func acceptsVerifiedAccessToken(_ token: String) -> Bool {
        verified.identity(of: token, now: configuration.now()) != nil
    }

    private func authorize(
        _ request: TokenRequest, basicCredentials: (id: String, secret: String)?
    ) async throws(ErrorAnswer) -> (GrantType, ClientCredentials, StoredSignIn?) {
        guard let grantName = request.grant_type, !grantName.isEmpty else {
            throw .tokenRequest(.badRequest, "invalid_request", "The grant_type parameter is missing.")
        }
        guard let grant = GrantType(rawValue: grantName) else {
            throw .tokenRequest(.badRequest, "unsupported_grant_type", "Use grant_type client_credentials, refresh_token or \(GrantType.deviceCode.rawValue).")
        }
        let client = try authenticateClient(request, basicCredentials: basicCredentials)
        switch grant {
        case .clientCredentials:
            return (grant, client, nil)
        case .refreshToken:
            guard let token = request.refresh_token, !token.isEmpty else {
                throw .tokenRequest(.badRequest, "invalid_request", "The refresh_token parameter is missing.")
            }
            switch try await refreshTokens.consume(token, presentedBy: client, now: configuration.now()) {
            case nil:
                throw .tokenRequest(.badRequest, "invalid_grant", "The refresh token is unknown, expired, already used or issued to another client.")
            case .application:
                return (grant, client, nil)
            case let .person(signIn):
                return (grant, client, signIn)
            }
        case .deviceCode:
            guard let deviceCode = request.device_code, !deviceCode.isEmpty else {
                throw .tokenRequest(.badRequest, "invalid_request", "The device_code parameter is missing.")
            }
            let signIn = try await deviceFlow.redeem(deviceCode, presentedBy: client, now: configuration.now())
            return (grant, client, signIn)
        }
    }

    private func issueTokens(for client: ClientCredentials, signIn: StoredSignIn?) async throws(ErrorAnswer) -> TokenResponse {
        let now = configuration.now()
        let lifetime = configuration.accessTokenLifetime / .seconds(1)
        let payload = AccessTokenPayload(
            iss: IssuerClaim(value: configuration.issuer),
            aud: AudienceClaim(value: [configuration.audience]),
            sub: SubjectClaim(value: signIn?.account ?? client.id),
            client_id: client.id,
            sid: signIn?.id,
            iat: IssuedAtClaim(value: now),
            exp: ExpirationClaim(value: now.addingTimeInterval(lifetime)),
            jti: IDClaim(value: UUID().uuidString)
        )
        let accessToken: String
        let newest = configuration.signingKeys.newest
        do {
            guard let keys = keysByID[newest.id] else { throw JWTError.noKeyProvided }
            accessToken = try await keys.sign(payload, kid: JWKIdentifier(string: newest.id))
        } catch {
            throw ErrorAnswer(.internalServerError, code: "server_error", message: "The server could not sign a token.")
        }
        let refreshToken = try await refreshTokens.issue(
            for: client,
            signIn: signIn,
            expiresAt: now.addingTimeInterval(configuration.refreshTokenLifetime / .seconds(1)),
            now: now
        )
        return TokenResponse(access_token: accessToken, token_type: "Bearer", expires_in: Int(lifetime.rounded()), refresh_token: refreshToken)
    }
}
