import Foundation
import HTTPTypes
import MovieContract
import Movies
import Networking

/// Every request the movie API client can make. There is no other way to reach the API.
public enum APIRoute: Route, Hashable {
    /// The plain-text token of the original contract.
    case auth
    /// The OAuth 2.0 token endpoint.
    case token(TokenGrant)
    case movie(id: Int)
    case movies(MovieList, year: Int)
    /// A page of a search or listing of the catalogue.
    case search(MovieSearchRequest)
    /// What a search that found little probably meant: its query and year.
    case suggestion(MovieSearchRequest)
    /// The owner's watchlist.
    case watchlist
    /// The token owner's event feed (Server-Sent Events), resumed after `lastEventID`.
    case events(lastEventID: String?)
    /// A batch of watchlist changes, sent under an idempotency key.
    case watchlistChanges([WatchlistChangeRecord], key: String)
    /// The device authorization endpoint (RFC 8628 §3.1): a code for a person to approve.
    case deviceAuthorization(clientID: String, secret: String, deviceName: String)
    /// The revocation endpoint (RFC 7009): ends a person's sign-in by its refresh token.
    case revoke(refreshToken: String, clientID: String, secret: String)
    /// The devices signed in to the token's account.
    case sessions
    /// Signs every device of the token's account out.
    case endAllSessions

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
        case let .movies(list, year):
            Endpoint(path: ["movies", Self.pathSegment(of: list), String(year)])
        case let .search(request):
            Endpoint(path: ["movies"], queryItems: Self.queryItems(of: request))
        case let .suggestion(request):
            Endpoint(path: ["movies", "suggestions"], queryItems: [URLQueryItem(name: "query", value: request.text ?? "")]
                + (request.year.map { [URLQueryItem(name: "year", value: String($0))] } ?? []))
        case .watchlist:
            Endpoint(path: ["watchlist"])
        case let .events(lastEventID):
            Endpoint(
                path: ["events"],
                headerFields: Self.eventStreamFields(lastEventID: lastEventID),
                timeout: .seconds(10),
                isRetrySafe: true,
                followsRedirects: false
            )
        case let .deviceAuthorization(id, secret, deviceName):
            Self.form(["auth", "device"], [("client_id", id), ("client_secret", secret), ("device_name", deviceName)])
        case let .revoke(token, id, secret):
            Self.form(["auth", "revoke"], [("token", token), ("token_type_hint", "refresh_token"), ("client_id", id), ("client_secret", secret)])
        case .sessions:
            Endpoint(path: ["account", "sessions"])
        case .endAllSessions:
            Endpoint(method: .delete, path: ["account", "sessions"], isRetrySafe: true, followsRedirects: false)
        case let .watchlistChanges(changes, key):
            Endpoint(
                method: .post,
                path: ["watchlist", "changes"],
                headerFields: [.contentType: "application/json", .accept: "application/json", .idempotencyKey: key],
                body: WatchlistWire.Batch(changes).json,
                // The key makes a repeat harmless: the server answers it without applying anything twice.
                isRetrySafe: true,
                followsRedirects: false
            )
        }
    }

    /// A form POST to an OAuth endpoint, which authenticates the client in its body.
    private static func form(_ path: [String], _ parameters: [(String, String)]) -> Endpoint {
        Endpoint(
            method: .post,
            path: path,
            headerFields: [.contentType: "application/x-www-form-urlencoded", .accept: "application/json"],
            body: Data(parameters.map { "\(TokenGrant.formEncoded($0))=\(TokenGrant.formEncoded($1))" }.joined(separator: "&").utf8),
            requiresAuthentication: false,
            isRetrySafe: false,
            followsRedirects: false
        )
    }

    /// The query string of a search, parameters in the contract's order, only those given.
    private static func queryItems(of request: MovieSearchRequest) -> [URLQueryItem] {
        var items: [URLQueryItem] = []
        if let text = request.text { items.append(URLQueryItem(name: "query", value: text)) }
        if let year = request.year { items.append(URLQueryItem(name: "year", value: String(year))) }
        for (name, value) in request.filter.queryItems where !(name == "year" && request.year != nil) {
            items.append(URLQueryItem(name: name, value: value))
        }
        if let sort = request.sort { items.append(URLQueryItem(name: "sort", value: sort.rawValue)) }
        if let order = request.order { items.append(URLQueryItem(name: "order", value: order.rawValue)) }
        items.append(URLQueryItem(name: "limit", value: String(request.limit)))
        if let cursor = request.cursor { items.append(URLQueryItem(name: "cursor", value: cursor)) }
        return items
    }

    private static func pathSegment(of list: MovieList) -> String {
        switch list {
        case .topGrossing: "topGrossing"
        case .topRated: "topRated"
        }
    }
}

extension APIRoute {
    /// The movie with the given id.
    public static func movieRequest(id: Int) -> Request<Movie> {
        Request(endpoint: APIRoute.movie(id: id).endpoint) { body throws(NetworkError) in
            try DomainMovies.movie(ResponseDecoding.decode(CatalogMovie.self, from: body), at: "$")
        }
    }

    /// The movies of `list` for `year`.
    public static func moviesRequest(_ list: MovieList, year: Int) -> Request<[Movie]> {
        Request(endpoint: APIRoute.movies(list, year: year).endpoint) { body throws(NetworkError) in
            try DomainMovies.movies(ResponseDecoding.decode([CatalogMovie].self, from: body), at: "$")
        }
    }

    /// A page of a search or listing.
    public static func searchRequest(_ request: MovieSearchRequest) -> Request<MovieSearchPage> {
        Request(endpoint: APIRoute.search(request).endpoint) { body throws(NetworkError) in
            try DomainMovies.page(ResponseDecoding.decode(MoviePageWire.self, from: body))
        }
    }

    /// The suggestion for a search that found little.
    public static func suggestionRequest(_ request: MovieSearchRequest) -> Request<SuggestionWire.Answer> { Request(APIRoute.suggestion(request)) }

    /// The owner's watchlist.
    public static func watchlistRequest() -> Request<APIWatchlist> { Request(APIRoute.watchlist) }

    /// What became of each of a batch of watchlist changes.
    public static func watchlistChangesRequest(_ changes: [WatchlistChangeRecord], key: String) -> Request<APIWatchlistResults> {
        Request(APIRoute.watchlistChanges(changes, key: key))
    }

    /// A device's poll of the token endpoint: a 400 is an answer too (keep waiting, slow down,
    /// denied, expired), not a failure.
    static func devicePollRequest(_ grant: TokenGrant) -> Request<DevicePoll> {
        var endpoint = APIRoute.token(grant).endpoint
        endpoint.acceptableStatusCodes = 200..<401
        return Request(endpoint: endpoint) { body throws(NetworkError) in try DevicePoll(body: body) }
    }

    private static func eventStreamFields(lastEventID: String?) -> HTTPFields {
        var fields: HTTPFields = [.accept: "text/event-stream", .cacheControl: "no-cache", .acceptEncoding: "identity"]
        if let lastEventID { fields[HTTPField.Name("Last-Event-ID")!] = lastEventID }
        return fields
    }
}
