import Foundation
import HTTPTypes

/// The request to send after a redirect, as browsers and RFC 9110 do it, with credentials
/// kept to their origin.
enum Redirection {
    static let statuses: Set<Int> = [301, 302, 303, 307, 308]

    /// The next request, or `nil` when `response` is not a redirect that can be followed.
    static func follow(_ response: APIResponse, from request: APIRequest) -> APIRequest? {
        guard statuses.contains(response.status.code),
              let location = response.headerFields[.location],
              let target = URL(string: location, relativeTo: request.url)?.absoluteURL,
              let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https", target.host != nil
        else { return nil }
        var next = request
        next.url = target
        if origin(of: target) != origin(of: request.url) {
            for name in request.sensitiveHeaderNames { next.headerFields[name] = nil }
        }
        let code = response.status.code
        if code == 303 || ((code == 301 || code == 302) && request.method == .post) {
            next.method = .get
            next.body = nil
            next.headerFields[.contentType] = nil
            next.headerFields[.contentLength] = nil
        }
        return next
    }

    /// Scheme, host and port: what two URLs must share to be the same origin.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }
}
