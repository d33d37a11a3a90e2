/// The parameters of a token request, from a form-encoded or JSON body (RFC 6749, sections 4.4
/// and 6; RFC 8628 §3.4), of a revocation request (RFC 7009 §2.1: `token`, `token_type_hint`) and of a device
/// authorization request (RFC 8628 §3.1).
struct TokenRequest: Decodable, Sendable {
    var grant_type: String?
    var client_id: String?
    var client_secret: String?
    var refresh_token: String?
    var device_code: String?
    var scope: String?
    var token: String?
    var token_type_hint: String?
    /// What the sign-in page calls the device asking (`POST /api/auth/device` only).
    var device_name: String?
}
