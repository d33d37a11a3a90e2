/// What ``AuthenticationInterceptor`` needs to know about one API's credentials: how to put one
/// on a request, how to get a new one, and how to tell that the server refused one.
public protocol Authenticator: Sendable {
    associatedtype Credential: Sendable

    /// Adds `credential` to `request` (usually an `Authorization` header).
    func apply(_ credential: Credential, to request: inout APIRequest)

    /// Whether `credential` is expired or about to expire, so it should be renewed before use.
    func needsRenewal(_ credential: Credential) -> Bool

    /// Whether `request` was sent with `credential` (rather than an older one).
    func isRequest(_ request: APIRequest, authenticatedWith credential: Credential) -> Bool

    /// Whether a failed attempt means the server refused the credential. Usually a 401.
    func isAuthenticationFailure(_ request: APIRequest, response: APIResponse?, error: NetworkError) -> Bool

    /// A fresh credential from nothing (for example the client credentials grant).
    func authorize() async throws(NetworkError) -> Credential

    /// A fresh credential in exchange for `credential` (for example its refresh token).
    func refresh(_ credential: Credential) async throws(NetworkError) -> Credential
}

extension Authenticator {
    public func isAuthenticationFailure(_ request: APIRequest, response: APIResponse?, error: NetworkError) -> Bool {
        error.statusCode == 401
    }
}
