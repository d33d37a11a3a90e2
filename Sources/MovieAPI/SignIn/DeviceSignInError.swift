import Networking

/// Why signing a person in with the device flow did not end with a credential, in words to act on.
public enum DeviceSignInError: Error, Sendable, CustomStringConvertible {
    /// The server has no device authorization endpoint (a server without accounts, the static
    /// site, a server that is not Marquee's): it answered `status`.
    case notSupported(api: String, status: Int)
    case denied
    case expired
    /// The server refused the poll (`invalid_grant`, `invalid_client`…).
    case refused(String)
    /// The server named a sign-in page that is not an `http` or `https` address
    /// (``DeviceCodeOffer/pageProblem``): it is not shown, for a person would be asked to open it.
    case untrustedPage(String)
    case network(NetworkError)

    public var description: String {
        switch self {
        case let .notSupported(api, status): "\(api) has no accounts to sign in to: it offers no device sign-in (it answered \(NetworkError.statusLine(status))); is --env the Marquee server you meant?"
        case .denied: "the sign-in was denied on the page; nothing was signed in"
        case .expired: "the code expired before it was approved; run 'marquee login' again for a new one"
        case let .refused(reason): "the server refused the sign-in: \(reason)"
        case let .untrustedPage(problem): "the server's sign-in page was not shown: \(problem); nothing was signed in (is --env the server you meant?)"
        case let .network(error): error.description
        }
    }
}
