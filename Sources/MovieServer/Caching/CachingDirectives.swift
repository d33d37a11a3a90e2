import Hummingbird

/// How the movie answers may be cached: for how long, and whether a shared cache may keep them.
///
/// Answers that needed a credential are `private`: only the client that asked may keep them.
struct CachingDirectives: Sendable {
    let maxAge: Int
    let isPrivate: Bool

    var cacheControl: String { "\(isPrivate ? "private" : "public"), max-age=\(maxAge)" }

    /// `body` with its validator and freshness, or a bodiless `304 Not Modified` when the request's
    /// `If-None-Match` names the body's tag (or is `*`).
    func response(for body: CacheableBody, to request: Request) -> Response {
        var headers: HTTPFields = [.eTag: body.entityTag, .cacheControl: cacheControl]
        let conditions = request.headers[values: .ifNoneMatch].joined(separator: ",")
        if !conditions.isEmpty, EntityTagMatching.ifNoneMatch(conditions, matches: body.entityTag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body.bytes))
    }
}
