/// The one rule for a request's bearer token (RFC 6750), used by the router
/// (``AccessTokenAuthenticator``) and by the answers given on the event loop (``CachedAnswers``):
/// a request names a token in one `Authorization: Bearer` header, and the token is verified by
/// the ``TokenService``. Every refusal is counted as a challenge in the grant ledger.
struct AccessTokenCheck: Sendable {
    let tokens: TokenService

    /// The identity the token in `authorization` proves; `missing` is thrown when there is none.
    func identity(authorization: String?, missing: ErrorAnswer) async throws(ErrorAnswer) -> AccessTokenIdentity {
        do throws(ErrorAnswer) {
            guard let authorization, let token = BearerAuthorization.token(in: authorization) else { throw missing }
            return try await tokens.verifyAccessToken(token)
        } catch {
            tokens.ledger.recordChallenge()
            throw error
        }
    }

    /// Whether the one `Authorization` header in `headers` names a token verified before and not
    /// expired since: an answer without waiting; `false` sends the request to the router, which
    /// verifies (and remembers) it or refuses it.
    func isVerified(authorizationHeaders headers: [String]) -> Bool {
        guard headers.count == 1, let token = BearerAuthorization.token(in: headers[0]) else { return false }
        return tokens.acceptsVerifiedAccessToken(token)
    }
}
