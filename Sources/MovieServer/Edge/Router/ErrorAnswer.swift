import Foundation
import Hummingbird
import MovieContract

/// An error answer of the movie API: a status and a JSON body
/// `{"error": code, "error_description": message}`, the shape RFC 6749 uses for token errors,
/// kept for every error so clients read one format.
public struct ErrorAnswer: HTTPResponseError, Sendable {
    public let status: HTTPResponse.Status
    public let code: String
    public let message: String
    public var headerFields: HTTPFields

    public init(_ status: HTTPResponse.Status, code: String, message: String, headerFields: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.headerFields = headerFields
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        response
    }

    /// The answer as sent: the JSON body, never stored by a cache.
    var response: Response {
        var headers = headerFields
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: json)))
    }

    /// The response of an error answer without extra headers whose body is already encoded:
    /// the same bytes as ``response(from:context:)`` gives.
    static func response(status: HTTPResponse.Status, body: ByteBuffer) -> Response {
        Response(status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"], body: .init(byteBuffer: body))
    }

    var body: Data { Data(json.utf8) }

    /// The contract's ``ErrorBody``, written directly (a 404 or 400 is answered many times, and
    /// `JSONEncoder` cost several µs each).
    var json: String {
        ErrorBody(error: code, errorDescription: message).json
    }
}

extension ErrorAnswer {
    static func badRequest(_ message: String) -> ErrorAnswer {
        ErrorAnswer(.badRequest, code: "invalid_request", message: message)
    }

    static func notFound(_ message: String) -> ErrorAnswer {
        ErrorAnswer(.notFound, code: "not_found", message: message)
    }
}

extension ErrorAnswer {
    /// An RFC 6749 token endpoint error.
    static func tokenRequest(_ status: HTTPResponse.Status, _ code: String, _ message: String, headers: HTTPFields = [:]) -> ErrorAnswer {
        ErrorAnswer(status, code: code, message: message, headerFields: headers)
    }

    /// An RFC 6750 bearer token error: 401 with a `WWW-Authenticate: Bearer` challenge.
    static func invalidToken(_ message: String) -> ErrorAnswer {
        ErrorAnswer(
            .unauthorized, code: "invalid_token", message: message,
            headerFields: [.wwwAuthenticate: AuthenticationChallenge.bearer(error: "invalid_token", description: message)]
        )
    }

    /// A personal request of an account removed after its token was checked.
    static let accountRemoved = invalidToken("The account this token belongs to has been removed.")

    static let missingToken = ErrorAnswer(
        .unauthorized, code: "invalid_token",
        message: "An access token is required: send Authorization: Bearer <token>, from POST /api/auth/token.",
        headerFields: [.wwwAuthenticate: AuthenticationChallenge.bearer]
    )

    static let applicationHasNoWatchlist = ErrorAnswer(
        .forbidden, code: "insufficient_scope",
        message: "A watchlist belongs to a person: this token is an application's (client credentials). Sign in with the device flow (marquee login).",
        headerFields: [.wwwAuthenticate: AuthenticationChallenge.bearer + #", error="insufficient_scope""#]
    )

    static let applicationHasNoAccount = ErrorAnswer(
        .forbidden, code: "insufficient_scope",
        message: "This token is an application's (client credentials): only a person has an account. Sign in with the device flow (marquee login).",
        headerFields: [.wwwAuthenticate: AuthenticationChallenge.bearer + #", error="insufficient_scope""#]
    )

    static let applicationHasNoShelf = ErrorAnswer(
        .forbidden, code: "insufficient_scope",
        message: "Ratings, a diary and lists belong to a person: this token is an application's (client credentials). Sign in with the device flow (marquee login).",
        headerFields: [.wwwAuthenticate: AuthenticationChallenge.bearer + #", error="insufficient_scope""#]
    )

    static let missingShelfToken = ErrorAnswer(
        .unauthorized, code: "invalid_token",
        message: "A person's ratings, diary and lists need an access token, also on a public server: send Authorization: Bearer <token>, from POST /api/auth/token.",
        headerFields: [.wwwAuthenticate: AuthenticationChallenge.bearer]
    )

    static let missingWatchlistToken = ErrorAnswer(
        .unauthorized, code: "invalid_token",
        message: "The watchlist needs an access token, also on a public server: send Authorization: Bearer <token>, from POST /api/auth/token.",
        headerFields: [.wwwAuthenticate: AuthenticationChallenge.bearer]
    )
}

extension ErrorAnswer {
    /// 503: the server's database did not answer; the request may be tried again.
    static func storageUnavailable(_ error: StorageError) -> ErrorAnswer {
        ErrorAnswer(
            .serviceUnavailable, code: "temporarily_unavailable",
            message: "The movie database is not answering; try again shortly.",
            headerFields: [.retryAfter: "1"]
        )
    }
}
