/// The parameters of a token request, from a form-encoded or JSON body (RFC 6749, sections 4.4 and 6).
struct TokenRequest: Decodable, Sendable {
    var grant_type: String?
    var client_id: String?
    var client_secret: String?
    var refresh_token: String?
    var scope: String?
}
