import Foundation

/// What the app offers the token endpoint in exchange for a credential.
///
/// Its descriptions never show the secret or the refresh token.
public enum TokenGrant: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The app authorizing itself with its client id and secret.
    case clientCredentials(id: String, secret: String)
    /// A refresh token, used up by the exchange, presented with the id and secret of the client it
    /// was issued to (RFC 6749 §6: the server redeems it for that client only).
    case refreshToken(String, clientID: String, secret: String)
    /// A device's poll for the tokens a person approved (RFC 8628 §3.4).
    case deviceCode(String, clientID: String, secret: String)

    /// The `grant_type` parameter: `client_credentials`, `refresh_token`, or the device code's URN.
    var grantType: String {
        switch self {
        case .clientCredentials: "client_credentials"
        case .refreshToken: "refresh_token"
        case .deviceCode: "urn:ietf:params:oauth:grant-type:device_code"
        }
    }

    /// The `application/x-www-form-urlencoded` parameters of the token request.
    var formBody: String {
        let parameters: [(String, String)] =
            switch self {
            case let .clientCredentials(id, secret):
                [("grant_type", grantType), ("client_id", id), ("client_secret", secret)]
            case let .refreshToken(token, id, secret):
                [("grant_type", grantType), ("refresh_token", token), ("client_id", id), ("client_secret", secret)]
            case let .deviceCode(code, id, secret):
                [("grant_type", grantType), ("device_code", code), ("client_id", id), ("client_secret", secret)]
            }
        return parameters.map { "\(Self.formEncoded($0))=\(Self.formEncoded($1))" }.joined(separator: "&")
    }

    public var description: String {
        switch self {
        case let .clientCredentials(id, _): "client_credentials(\(id))"
        case .refreshToken: "refresh_token"
        case .deviceCode: "device_code"
        }
    }

    public var customMirror: Mirror { Mirror(self, children: ["grant": description]) }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func formEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
