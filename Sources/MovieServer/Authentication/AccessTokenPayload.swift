import JWTKit

/// The claims of an access token: which server issued it, for which API, to which client, when,
/// from when (`nbf`, when present), until when, and a unique id.
struct AccessTokenPayload: JWTPayload {
    var iss: IssuerClaim
    var aud: AudienceClaim
    var sub: SubjectClaim
    var iat: IssuedAtClaim
    var nbf: NotBeforeClaim?
    var exp: ExpirationClaim
    var jti: IDClaim

    /// Expiry, start, issuer, audience and subject are checked by ``TokenService`` against the
    /// server's own clock and configuration, after the signature.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
