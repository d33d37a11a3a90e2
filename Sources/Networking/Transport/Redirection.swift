import Foundation
import HTTPTypes

/// The request to send after a redirect, as browsers and RFC 9110 do it, with credentials kept
/// to their origin.
///
/// A redirect is refused (``NetworkError/redirectRefused(_:)``) when its endpoint does not follow
/// redirects, when its `Location` is not an http(s) URL with a host and a port from 1 to 65535,
/// and when it would carry a request body to another origin.
enum Redirection {
    static let statuses: Set<Int> = [301, 302, 303, 307, 308]

    /// The next request, or `nil` when `response` is not a redirect.
    static func follow(_ response: APIResponse, from request: APIRequest) throws(NetworkError) -> APIRequest? {
        let code = response.status.code
        guard statuses.contains(code) else { return nil }
        guard request.endpoint.followsRedirects else {
            throw .redirectRefused("\(request.url.path) answered \(code) and must not be redirected")
        }
        guard let location = response.headerFields[.location] else { return nil }
        guard let target = URL(string: location, relativeTo: request.url)?.absoluteURL else {
            throw .redirectRefused("the new location is not a URL")
        }
        if let problem = target.problemAsHTTPAddress {
            throw .redirectRefused("the new location \(problem)")
        }
        var next = request
        next.url = target
        let changesMethodToGet = code == 303 || ((code == 301 || code == 302) && request.method == .post)
        if changesMethodToGet {
            next.method = .get
            next.body = nil
            next.headerFields[.contentType] = nil
            next.headerFields[.contentLength] = nil
        }
        if origin(of: target) != origin(of: request.url) {
            guard next.body == nil else {
                throw .redirectRefused("the request's body would go to another origin (\(origin(of: target)))")
            }
            for name in request.sensitiveHeaderNames { next.headerFields[name] = nil }
        }
        return next
    }

    /// Scheme, host and port: what two URLs must share to be the same origin.
    static func origin(of url: URL) -> String {
        "\(url.scheme?.lowercased() ?? "")://\(url.host?.lowercased() ?? ""):\(url.portOrSchemeDefault)"
    }
}
