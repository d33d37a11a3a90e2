/// The OAuth 2.0 grants the token endpoint accepts.
public enum GrantType: String, Sendable, CaseIterable {
    case clientCredentials = "client_credentials"
    case refreshToken = "refresh_token"
}
