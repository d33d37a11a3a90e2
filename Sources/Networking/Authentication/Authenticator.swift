import HTTPTypes

/// What ``AuthenticationInterceptor`` needs to know about one API's credentials: how to put one
/// on a request, how to get a new one, and how to tell that the server asked for one.
public protocol Authenticator: Sendable {
    associatedtype Credential: Sendable & Equatable

    /// Adds `credential` to `request` (usually an `Authorization` header).
    func apply(_ credential: Credential, to request: inout APIRequest)

    /// Whether `credential` is expired or about to expire, so it should be renewed before use.
    func needsRenewal(_ credential: Credential) -> Bool

    /// Whether `request` was sent with `credential` (rather than an older one, or none).
    func isRequest(_ request: APIRequest, authenticatedWith credential: Credential) -> Bool

    /// Whether a failed attempt means the server wants a (new) credential: by default a 401.
    func isAuthenticationFailure(_ request: APIRequest, response: APIResponse?, error: NetworkError) -> Bool

    /// A fresh credential from nothing (for example the client credentials grant).
    func authorize() async throws(NetworkError) -> Credential

    /// A fresh credential in exchange for `credential` (for example its refresh token). Throws
    /// ``NetworkError/authenticationFailed(_:)`` only when `credential` can never be renewed (the
    /// server refused the grant, as OAuth's `invalid_grant`, or it has no refresh token): then
    /// ``authorize()`` is tried. Any other error leaves `credential` stored.
    func refresh(_ credential: Credential) async throws(NetworkError) -> Credential
}

extension Authenticator {
    public func isAuthenticationFailure(_ request: APIRequest, response: APIResponse?, error: NetworkError) -> Bool {
        error.statusCode == 401
    }
}

/// Reads the challenges of a `WWW-Authenticate` header (RFC 9110, section 11.6.1).
public enum AuthenticationChallenge {
    /// Whether `response` is a 401 that challenges for `scheme` (compared without case), such as
    /// `Bearer` in `WWW-Authenticate: Basic realm="a", Bearer error="invalid_token"`.
    public static func isChallenge(_ response: APIResponse?, for scheme: String) -> Bool {
        guard let response, response.status.code == 401 else { return false }
        return response.headerFields[values: .wwwAuthenticate].contains { schemes(in: $0).contains(scheme.lowercased()) }
    }

    /// The auth-schemes named in one header value, lowercased. A scheme is a token that starts
    /// the value or follows a comma and is not a parameter's name (not followed by `=`).
    public static func schemes(in value: String) -> [String] {
        var schemes: [String] = [], quoted = false, escaped = false, element = ""
        func finish() {
            let trimmed = element.drop(while: \.isWhitespace)
            let firstWord = trimmed.prefix { !$0.isWhitespace && $0 != "=" }
            let rest = trimmed.dropFirst(firstWord.count).drop(while: \.isWhitespace)
            if !firstWord.isEmpty, !rest.hasPrefix("=") { schemes.append(firstWord.lowercased()) }
            element = ""
        }
        for character in value {
            if escaped { escaped = false; element.append(character); continue }
            switch character {
            case "\\" where quoted: escaped = true
            case "\"": quoted.toggle()
            case "," where !quoted: finish(); continue
            default: break
            }
            element.append(character)
        }
        finish()
        return schemes
    }
}
