/// The OAuth 2.0 grants the token endpoint accepts.
public enum GrantType: String, Sendable, CaseIterable {
    case clientCredentials = "client_credentials"
    case refreshToken = "refresh_token"
    /// RFC 8628 §3.4: a device polling for the tokens a person approved on the sign-in page.
    case deviceCode = "urn:ietf:params:oauth:grant-type:device_code"
}
