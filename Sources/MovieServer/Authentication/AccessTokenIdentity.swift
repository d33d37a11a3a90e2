import HummingbirdAuth

/// Who a verified access token speaks for: its subject (`sub`), the client it was issued to.
/// Put in the request's context by `AccessTokenAuthenticator`; the routes read it from there.
public struct AccessTokenIdentity: Sendable, Hashable {
    public let subject: String
}

/// The context of every routed request: Hummingbird's, with the identity the access token
/// proved (none before `AccessTokenAuthenticator`, or on a path that needs no token).
typealias APIRequestContext = BasicAuthRequestContext<AccessTokenIdentity>
