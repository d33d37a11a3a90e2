import HTTPTypes
import NIOCore
import NIOHTTP1

/// The answers the server gives without leaving the event loop: whatever the ``ResponseCache``
/// keeps for the request's ``CacheKey``, with the validators, freshness, `HEAD` and `304` handling
/// of the routed answers and the same headers, byte for byte. On a server that requires a token,
/// only to a request whose bearer token the server verified before and that has not expired.
///
/// Anything else — another path or method, an answer not kept (the router computes and keeps
/// it), a catalogue version due for a check, a token not verified yet, a wrong or missing one —
/// is left to the router (`nil`), which answers it and, for a good token, remembers it.
struct CachedAnswers: Sendable {
    /// A complete answer: its head, the body unless the request was `HEAD` or the answer a `304`,
    /// and where it is counted in the metrics.
    struct Answer {
        let head: HTTPResponseHead
        let body: ByteBuffer?
        /// Its series in ``RequestTallies``.
        let series: Int
    }

    private let cache: ResponseCache
    /// Checks the bearer token as the router does; `nil` on a public server.
    private let check: AccessTokenCheck?
    private let caching: CachingDirectives
    private let serverName: String?
    /// By route, method (GET, HEAD) and status (200, 304, 404): see ``series(_:_:_:)``.
    private let series: [Int]
    /// Where the answers are counted and timed, each event loop in its own share.
    let tallies: RequestTallies
    /// Whether a request whose `traceparent` was decided traced (``TraceDecisionHandler``) is left
    /// to the router, which traces it; one decided not traced is answered here like any other.
    private let leavesTraced: Bool

    private static let statuses = [200, 304, 404]

    init(cache: ResponseCache, check: AccessTokenCheck?, caching: CachingDirectives, serverName: String?, metrics: ServerMetrics, leavesTraced: Bool = false) {
        self.cache = cache
        self.leavesTraced = leavesTraced
        self.check = check
        self.caching = caching
        self.serverName = serverName
        tallies = metrics.requests
        var series: [Int] = []
        for route in CacheKey.Route.allCases {
            for method in ["GET", "HEAD"] {
                for status in Self.statuses {
                    series.append(metrics.requests.series(route: route.label, method: method, status: status))
                }
            }
        }
        self.series = series
    }

    func answer(to request: HTTPRequestHead, now: ContinuousClock.Instant, date: String) -> Answer? {
        guard request.method == .GET || request.method == .HEAD,
              !leavesTraced || !request.isTraced,
              let key = CacheKey(target: request.uri),
              isAuthorized(request),
              let kept = cache.kept(key, now: now)
        else { return nil }
        // Made as a list and handed to `HTTPHeaders` whole: its `add` checks every name, and these are known.
        var fields: [(String, String)] = []
        fields.reserveCapacity(6)
        let status: HTTPResponseStatus
        let body: ByteBuffer?
        switch kept {
        case let .found(cached):
            let notModified = request.headers.contains(name: "If-None-Match")
                && CachingDirectives.isNotModified(request.headers["If-None-Match"], body: cached)
            caching.addHeaderFields(for: cached, notModified: notModified) { fields.append(($0.rawName, $1)) }
            if notModified {
                status = .notModified
                body = nil
            } else {
                status = .ok
                fields.append(("Content-Length", cached.contentLength))
                body = cached.bytes
            }
        case let .notFound(_, errorBody):
            status = .notFound
            fields.append(("Content-Type", "application/json"))
            fields.append(("Cache-Control", "no-store"))
            fields.append(("Content-Length", String(errorBody.readableBytes)))
            body = errorBody
        }
        fields.append(("Date", date))
        if let serverName { fields.append(("Server", serverName)) }
        return Answer(
            head: HTTPResponseHead(version: .http1_1, status: status, headers: HTTPHeaders(fields)),
            body: request.method == .GET ? body : nil,
            series: series(key.route, request.method, Int(status.code))
        )
    }

    private func series(_ route: CacheKey.Route, _ method: HTTPMethod, _ status: Int) -> Int {
        let statusIndex = Self.statuses.firstIndex(of: status) ?? 0
        return series[route.rawValue * 6 + (method == .GET ? 0 : 3) + statusIndex]
    }

    private func isAuthorized(_ request: HTTPRequestHead) -> Bool {
        check?.isVerified(authorizationHeaders: request.headers["Authorization"]) ?? true
    }
}
