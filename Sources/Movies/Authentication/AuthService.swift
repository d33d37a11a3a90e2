/// Obtains credentials for the API: the app authorizing itself, and renewing what it has.
///
/// `Failure` is the implementation's own error type (the movie API's is `NetworkError`), so a
/// caller that knows the implementation keeps the error's type.
public protocol AuthService<Failure>: Sendable {
    associatedtype Failure: Error

    /// A new credential for the app itself (the client credentials grant).
    func authorize() async throws(Failure) -> Credential

    /// A new credential in exchange for a refresh token, which is used up.
    func refresh(using refreshToken: String) async throws(Failure) -> Credential
}
