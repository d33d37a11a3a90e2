import JWTKit

/// The claims of an access token: which server issued it, for which API, for whom (`sub`),
/// through which client (`client_id`, RFC 9068) and sign-in (`sid`, a person's only), when,
/// from when (`nbf`, when present), until when, and a unique id.
struct AccessTokenPayload: JWTPayload {
    var iss: IssuerClaim
    var aud: AudienceClaim
    var sub: SubjectClaim
    var client_id: String?
    var sid: String?
    var iat: IssuedAtClaim
    var nbf: NotBeforeClaim?
    var exp: ExpirationClaim
    var jti: IDClaim

    /// Expiry, start, issuer, audience and subject are checked by ``TokenService`` against the
    /// server's own clock and configuration, after the signature.
    func verify(using algorithm: some JWTAlgorithm) async throws {}

    /// The client the token was issued to: `client_id`, or `sub` in a token made before it was written.
    var clientID: String { client_id ?? sub.value }
}
