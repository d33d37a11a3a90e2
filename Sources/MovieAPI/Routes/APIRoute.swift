import Foundation
import Networking

/// Every request the movie API client can make. There is no other way to reach the API.
public enum APIRoute: Route, Hashable {
    /// The plain-text token of the original contract.
    case auth
    /// The OAuth 2.0 token endpoint.
    case token(TokenGrant)
    case movie(id: Int)
    case topGrossingMovies(year: Int)
    case topRatedMovies(year: Int)

    public var endpoint: Endpoint {
        switch self {
        case .auth:
            Endpoint(path: ["auth"], requiresAuthentication: false)
        case let .token(grant):
            Endpoint(
                method: .post,
                path: ["auth", "token"],
                headerFields: [.contentType: "application/x-www-form-urlencoded", .accept: "application/json"],
                body: Data(grant.formBody.utf8),
                requiresAuthentication: false,
                isRetrySafe: false,
                followsRedirects: false
            )
        case let .movie(id):
            Endpoint(path: ["movies", String(id)])
        case let .topGrossingMovies(year):
            Endpoint(path: ["movies", "topGrossing", String(year)])
        case let .topRatedMovies(year):
            Endpoint(path: ["movies", "topRated", String(year)])
        }
    }
}
