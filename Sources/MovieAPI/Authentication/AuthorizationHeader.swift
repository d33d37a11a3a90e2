import HTTPTypes

/// How the access token travels on a request.
public enum AuthorizationHeader: Sendable, Hashable {
    /// `Authorization: Bearer <token>` (RFC 6750).
    case bearer
    /// `<name>: <token>`, as the original app's `AUTH_TOKEN` header.
    case custom(HTTPField.Name)

    var name: HTTPField.Name {
        switch self {
        case .bearer: .authorization
        case let .custom(name): name
        }
    }

    func value(for accessToken: String) -> String {
        switch self {
        case .bearer: "Bearer \(accessToken)"
        case .custom: accessToken
        }
    }
}
