import Foundation

/// Who a verified access token speaks for: a person (an account, through a client, on one
/// sign-in) or a client application on its own. Put in the request's context by
/// `AccessTokenAuthenticator`; the routes read it from there.
public struct AccessTokenIdentity: Sendable, Hashable {
    /// The token's `sub`: the account's name for a person, the client's id for an application.
    public let subject: String
    /// The client the token was issued to.
    public let clientID: String
    /// The sign-in (a person's device) the token belongs to; nil for an application's token.
    public let signInID: String?
    /// When the token stops being accepted: its `exp` and the server's clock-skew leeway.
    public let acceptedUntil: Date

    public init(subject: String, clientID: String, signInID: String?, acceptedUntil: Date) {
        self.subject = subject
        self.clientID = clientID
        self.signInID = signInID
        self.acceptedUntil = acceptedUntil
    }

    /// The account a person's token names; nil for an application's.
    public var account: String? { signInID == nil ? nil : subject }

}

