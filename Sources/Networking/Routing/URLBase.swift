import Foundation

/// A base URL read once, for the many endpoint URLs built under it: checked as an HTTP address,
/// and reduced to the text every endpoint URL under it starts with.
///
/// ``url(for:)`` gives the same URL as ``Endpoint/url(relativeTo:)``, which it falls back to when
/// the base or the endpoint has a query or the base a fragment, without reading the base again.
struct URLBase: Sendable {
    let url: URL
    private let problem: NetworkError?
    /// Scheme, authority and percent-encoded path, without a trailing `/`; `nil` for the slow way.
    private let prefix: String?

    init(_ url: URL) {
        self.url = url
        problem = url.problemAsHTTPAddress.map { NetworkError.invalidRoute("the base URL \(url.absoluteString) \($0)") }
        prefix = problem == nil ? Self.prefix(of: url) : nil
    }

    private static func prefix(of url: URL) -> String? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true),
              components.percentEncodedQuery == nil, components.percentEncodedFragment == nil
        else { return nil }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        components.percentEncodedPath = ""
        return components.string.map { $0 + path }
    }

    func url(for endpoint: Endpoint) throws(NetworkError) -> URL {
        if let problem { throw problem }
        guard let prefix, endpoint.queryItems.isEmpty else { return try endpoint.url(relativeTo: url) }
        var text = prefix
        for segment in endpoint.pathSegments {
            try Endpoint.check(segment)
            text += "/"
            text += Endpoint.percentEncoded(segment)
        }
        guard let joined = URL(string: text) else { return try endpoint.url(relativeTo: url) }
        return joined
    }
}
