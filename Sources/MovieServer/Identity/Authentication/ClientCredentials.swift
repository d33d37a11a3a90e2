import Crypto
import Foundation

/// The id and secret of the one client application allowed to obtain tokens.
///
/// Its description never shows the secret.
public struct ClientCredentials: Sendable, CustomStringConvertible {
    public let id: String
    public let secret: String

    public init(id: String, secret: String) {
        self.id = id
        self.secret = secret
    }

    /// The pair that `marquee` and its embedded server use unless told otherwise. For development only.
    public static let development = ClientCredentials(id: "marquee-dev", secret: "marquee-dev-secret")

    /// Whether `id` is this client's id, compared in constant time.
    func matches(id: String) -> Bool {
        SHA256.hash(data: Data(id.utf8)) == SHA256.hash(data: Data(self.id.utf8))
    }

    /// Whether `id` and `secret` are these credentials, compared in constant time.
    func matches(id: String, secret: String) -> Bool {
        let idMatches = SHA256.hash(data: Data(id.utf8)) == SHA256.hash(data: Data(self.id.utf8))
        let secretMatches = SHA256.hash(data: Data(secret.utf8)) == SHA256.hash(data: Data(self.secret.utf8))
        return idMatches && secretMatches
    }

    public var description: String { "ClientCredentials(id: \(id), secret: <redacted>)" }
}
