import Foundation

/// Client credentials sent in an `Authorization: Basic` header (RFC 6749, section 2.3.1).
enum BasicCredentials {
    /// The id and secret in `header`, `nil` when there is no Basic header, or a 401 when it is malformed.
    static func parse(_ header: String?) throws(ErrorAnswer) -> (id: String, secret: String)? {
        guard let header, header.lowercased().hasPrefix("basic ") else { return nil }
        let encoded = header.dropFirst("basic ".count).trimmingCharacters(in: .whitespaces)
        guard let data = Data(base64Encoded: encoded), let decoded = String(data: data, encoding: .utf8),
              let colon = decoded.firstIndex(of: ":")
        else {
            throw .tokenRequest(.unauthorized, "invalid_client", "The Basic authorization header is malformed.", headers: [.wwwAuthenticate: AuthenticationChallenge.basic])
        }
        let id = String(decoded[..<colon]).removingPercentEncoding ?? String(decoded[..<colon])
        let rest = String(decoded[decoded.index(after: colon)...])
        return (id, rest.removingPercentEncoding ?? rest)
    }
}
