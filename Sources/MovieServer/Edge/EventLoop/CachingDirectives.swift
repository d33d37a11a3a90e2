import HTTPTypes
import Hummingbird

/// How the movie answers may be cached: for how long, and whether a shared cache may keep them.
///
/// Answers that needed a credential are `private`: only the client that asked may keep them.
struct CachingDirectives: Sendable {
    let maxAge: Int
    let isPrivate: Bool
    /// `private` or `public`, and `max-age`: made once, not per answer.
    let cacheControl: String

    init(maxAge: Int, isPrivate: Bool) {
        self.maxAge = maxAge
        self.isPrivate = isPrivate
        cacheControl = "\(isPrivate ? "private" : "public"), max-age=\(maxAge)"
    }

    /// Whether a request with these `If-None-Match` values gets a `304` for `body`: one of
    /// them names the body's tag (weakly), or is `*`.
    static func isNotModified(_ ifNoneMatch: [String], body: CacheableBody) -> Bool {
        !ifNoneMatch.isEmpty && EntityTagMatching.ifNoneMatch(ifNoneMatch.joined(separator: ","), matches: body.entityTag)
    }

    /// The headers of the answer for `body`, in order, besides those every answer has (`Date`,
    /// `Content-Length`, `Server`): the ones the router and the event-loop path both send.
    /// Handed to `add` one at a time: the event loop's path writes them straight into its head, with
    /// no array made per answer.
    func addHeaderFields(for body: CacheableBody, notModified: Bool, _ add: (HTTPField.Name, String) -> Void) {
        add(.eTag, body.entityTag)
        add(.cacheControl, cacheControl)
        if !notModified { add(.contentType, "application/json") }
    }

    /// `body` with its validator and freshness, or a bodiless `304 Not Modified` when the request's
    /// `If-None-Match` names the body's tag (or is `*`).
    func response(for body: CacheableBody, to request: Request) -> Response {
        let notModified = Self.isNotModified(request.headers[values: .ifNoneMatch], body: body)
        var headers = HTTPFields()
        headers.reserveCapacity(3)
        addHeaderFields(for: body, notModified: notModified) { headers.append(HTTPField(name: $0, value: $1)) }
        if notModified { return Response(status: .notModified, headers: headers) }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body.bytes))
    }
}
