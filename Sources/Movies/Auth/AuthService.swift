/// Obtains credentials for the API: the app authorizing itself, and renewing what it has.
public protocol AuthService: Sendable {
    /// A new credential for the app itself (the client credentials grant).
    func authorize() async throws -> Credential

    /// A new credential in exchange for a refresh token, which is used up.
    func refresh(using refreshToken: String) async throws -> Credential
}
