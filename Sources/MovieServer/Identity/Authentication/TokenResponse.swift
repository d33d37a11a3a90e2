/// The body of a successful token grant (RFC 6749, section 5.1).
struct TokenResponse: Encodable, Sendable {
    let access_token: String
    let token_type: String
    let expires_in: Int
    let refresh_token: String
}
