import JWTKit

/// The claims of an access token: who it was issued to, when, until when, and a unique id.
struct AccessTokenPayload: JWTPayload {
    var sub: SubjectClaim
    var iat: IssuedAtClaim
    var exp: ExpirationClaim
    var jti: IDClaim

    /// Expiry is checked by ``TokenService`` against the server's own clock, after the signature.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
