import Foundation
import HTTPTypes

/// One concrete attempt at an ``Endpoint``: an absolute URL and the headers as they will be sent.
///
/// Interceptors receive and return this value; the transport sends it.
public struct APIRequest: Sendable {
    public var method: HTTPRequest.Method
    public var url: URL
    public var headerFields: HTTPFields
    public var body: Data?
    public var timeout: Duration
    /// The endpoint this request was built from, so interceptors can read its options.
    public let endpoint: Endpoint
    /// The errors of the earlier attempts of the same call, oldest first.
    public internal(set) var failures: [NetworkError] = []
    /// When the client handed this attempt to the transport; `nil` before it is sent.
    public internal(set) var sentAt: ContinuousClock.Instant?
    /// Headers that carry credentials: never sent to another origin after a redirect.
    /// Interceptors that add a credential in another header add its name here.
    public var sensitiveHeaderNames: Set<HTTPField.Name> = [.authorization, .proxyAuthorization, .cookie]

    public init(endpoint: Endpoint, baseURL: URL, defaultTimeout: Duration) throws(NetworkError) {
        try self.init(endpoint: endpoint, base: URLBase(baseURL), defaultTimeout: defaultTimeout)
    }

    init(endpoint: Endpoint, base: URLBase, defaultTimeout: Duration) throws(NetworkError) {
        self.method = endpoint.method
        self.url = try base.url(for: endpoint)
        self.headerFields = endpoint.headerFields
        self.body = endpoint.body
        self.timeout = endpoint.timeout ?? defaultTimeout
        self.endpoint = endpoint
    }

    /// `host:port` of the URL, with the scheme's default port when none is given.
    public var hostAndPort: (host: String, port: Int) {
        (url.host ?? "", url.portOrSchemeDefault)
    }
}

extension URL {
    /// The URL's port, or its scheme's default: 443 for `https`, else 80.
    var portOrSchemeDefault: Int {
        port ?? (scheme?.lowercased() == "https" ? 443 : 80)
    }
}
