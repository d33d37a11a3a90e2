/// The id and secret the client authorizes itself with at the token endpoint
/// (the client credentials grant of RFC 6749).
///
/// Its descriptions never show the secret.
public struct APIClientCredentials: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    public let id: String
    public let secret: String

    public init(id: String, secret: String) {
        self.id = id
        self.secret = secret
    }

    public var description: String { "APIClientCredentials(id: \(id), secret: <redacted>)" }

    public var customMirror: Mirror { Mirror(self, children: ["id": id]) }
}
