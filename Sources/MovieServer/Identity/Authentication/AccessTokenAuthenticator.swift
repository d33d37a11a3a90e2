import Hummingbird
import HummingbirdAuth

/// The authentication step of the routes that need an access token: it verifies the request's
/// bearer token (``AccessTokenCheck``) and puts the ``AccessTokenIdentity`` in the context, or
/// answers 401 with a `WWW-Authenticate: Bearer` challenge: `missing` without a token, the
/// reason with a bad one. Hummingbird-auth's authenticator protocol, so the routes after it read
/// `context.identity`.
struct AccessTokenAuthenticator<Context: AuthRequestContext<AccessTokenIdentity>>: AuthenticatorMiddleware {
    typealias Identity = AccessTokenIdentity

    let check: AccessTokenCheck
    let missing: ErrorAnswer

    func authenticate(request: Request, context: Context) async throws -> AccessTokenIdentity? {
        try await check.identity(authorization: request.headers[.authorization], missing: missing)
    }
}

extension AuthRequestContext<AccessTokenIdentity> {
    /// The identity ``AccessTokenAuthenticator`` proved; a route behind it always has one.
    func verifiedIdentity() throws(ErrorAnswer) -> AccessTokenIdentity {
        guard let identity else { throw ErrorAnswer.missingToken }
        return identity
    }
}
