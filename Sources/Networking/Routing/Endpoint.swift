import Foundation
import HTTPTypes

/// Everything needed to build one HTTP request, relative to a base URL.
///
/// An `Endpoint` is what a ``Route`` resolves to. Its path is a list of unescaped segments, so
/// a value such as an id can never change the shape of the URL: each segment is percent-encoded
/// on its own when the client joins it to the base URL.
public struct Endpoint: Sendable, Hashable {
    public var method: HTTPRequest.Method
    public var pathSegments: [String]
    public var queryItems: [URLQueryItem]
    public var headerFields: HTTPFields
    public var body: Data?
    /// Status codes that count as success; anything else fails with ``NetworkError/status(code:excerpt:)``.
    public var acceptableStatusCodes: Range<Int>
    /// How long one attempt may take; `nil` uses the client's default.
    public var timeout: Duration?
    /// Whether interceptors that add credentials should act on this endpoint. A token endpoint sets this to `false`.
    public var requiresAuthentication: Bool
    /// Whether sending this request twice is harmless. Defaults to the method's idempotency.
    public var isRetrySafe: Bool
    /// Whether the transport follows a redirect answer. A token endpoint sets this to `false`:
    /// its body carries the client's secret, and RFC 6749 gives it no redirects.
    public var followsRedirects: Bool

    public init(
        method: HTTPRequest.Method = .get,
        path pathSegments: [String],
        queryItems: [URLQueryItem] = [],
        headerFields: HTTPFields = [:],
        body: Data? = nil,
        acceptableStatusCodes: Range<Int> = 200..<300,
        timeout: Duration? = nil,
        requiresAuthentication: Bool = true,
        isRetrySafe: Bool? = nil,
        followsRedirects: Bool = true
    ) {
        self.method = method
        self.pathSegments = pathSegments
        self.queryItems = queryItems
        self.headerFields = headerFields
        self.body = body
        self.acceptableStatusCodes = acceptableStatusCodes
        self.timeout = timeout
        self.requiresAuthentication = requiresAuthentication
        self.isRetrySafe = isRetrySafe ?? Self.idempotentMethods.contains(method)
        self.followsRedirects = followsRedirects
    }

    static let idempotentMethods: Set<HTTPRequest.Method> = [.get, .head, .put, .delete, .options, .trace]
}

/// A request an API allows, named by the API binding.
///
/// An API module declares its routes as one type (usually an enum) and the client sends
/// nothing else: there is no way to hand it a free-form URL.
public protocol Route: Sendable {
    var endpoint: Endpoint { get }
}

extension Endpoint: Route {
    public var endpoint: Endpoint { self }
}
