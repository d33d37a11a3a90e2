import CoreMetrics
import NIOCore
import HTTPTypes
import NIOHTTP1

/// The answers the server can give without leaving the event loop: the top lists it keeps
/// encoded (``TopListBodies``), with the validators, freshness, `HEAD` and `304` handling of the
/// routed answers and the same headers, byte for byte. On a server that requires a token, only
/// to a request whose bearer token the server verified before and that has not expired.
///
/// Anything else — another path, a parameter the router would refuse, a list not kept or due for
/// a catalog-version check, a token not verified yet, a wrong or missing one — is left to the
/// router (`nil`), which answers it and, for a good token, remembers it.
struct HotPathAnswers: Sendable {
    /// A complete answer: its head, the body unless the request was `HEAD` or the answer a `304`,
    /// and what records it in the metrics.
    struct Answer {
        let head: HTTPResponseHead
        let body: ByteBuffer?
        let recorder: ServerMetrics.RequestRecorder
    }

    private let topLists: TopListBodies
    /// Checks the bearer token; `nil` on a public server.
    private let tokens: TokenService?
    private let caching: CachingDirectives
    private let serverName: String?
    /// By list (grossing, rating), method (GET, HEAD) and status (200, 304).
    private let recorders: [ServerMetrics.RequestRecorder]
    let answeredCounter: CoreMetrics.Counter

    init(topLists: TopListBodies, tokens: TokenService?, caching: CachingDirectives, serverName: String?, metrics: ServerMetrics) {
        self.topLists = topLists
        self.tokens = tokens
        self.caching = caching
        self.serverName = serverName
        var recorders: [ServerMetrics.RequestRecorder] = []
        for route in ["/api/movies/topGrossing/{year}", "/api/movies/topRated/{year}"] {
            for method in ["GET", "HEAD"] {
                for status in [200, 304] {
                    recorders.append(metrics.requestRecorder(route: route, method: method, status: status))
                }
            }
        }
        self.recorders = recorders
        answeredCounter = metrics.eventLoopAnswerCounter()
    }

    func answer(to request: HTTPRequestHead, now: ContinuousClock.Instant, date: String) -> Answer? {
        guard request.method == .GET || request.method == .HEAD,
              let (order, year) = Self.topList(in: request.uri),
              isAuthorized(request),
              let body = topLists.keptBody(order, year: year, now: now)
        else { return nil }
        let recorderIndex = (order == .grossing ? 0 : 4) + (request.method == .GET ? 0 : 2)
        let notModified = CachingDirectives.isNotModified(request.headers["If-None-Match"], body: body)
        var headers = HTTPHeaders(caching.headerFields(for: body, notModified: notModified).map { ($0.name.rawName, $0.value) })
        if notModified {
            headers.add(name: "Date", value: date)
            if let serverName { headers.add(name: "Server", value: serverName) }
            return Answer(head: HTTPResponseHead(version: .http1_1, status: .notModified, headers: headers), body: nil, recorder: recorders[recorderIndex + 1])
        }
        headers.add(name: "Content-Length", value: body.contentLength)
        headers.add(name: "Date", value: date)
        if let serverName { headers.add(name: "Server", value: serverName) }
        return Answer(
            head: HTTPResponseHead(version: .http1_1, status: .ok, headers: headers),
            body: request.method == .GET ? body.bytes : nil,
            recorder: recorders[recorderIndex]
        )
    }

    private func isAuthorized(_ request: HTTPRequestHead) -> Bool {
        guard let tokens else { return true }
        let headers = request.headers["Authorization"]
        guard headers.count == 1, let token = BearerAuthorization.token(in: headers[0]) else { return false }
        return tokens.acceptsVerifiedAccessToken(token)
    }

    /// The list and year of `/api/movies/topGrossing/{year}` or `/api/movies/topRated/{year}`,
    /// for a year of one to four ASCII digits from 1 to 9999 and nothing after it.
    static func topList(in path: String) -> (TopListOrder, Int)? {
        var utf8 = Substring(path).utf8
        let prefix = "/api/movies/top".utf8
        guard utf8.starts(with: prefix) else { return nil }
        utf8.removeFirst(prefix.count)
        let order: TopListOrder
        if utf8.starts(with: "Grossing/".utf8) {
            order = .grossing
            utf8.removeFirst(9)
        } else if utf8.starts(with: "Rated/".utf8) {
            order = .rating
            utf8.removeFirst(6)
        } else {
            return nil
        }
        guard (1...4).contains(utf8.count) else { return nil }
        var year = 0
        for byte in utf8 {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            year = year * 10 + Int(byte - UInt8(ascii: "0"))
        }
        guard ParameterParsing.yearRange.contains(year) else { return nil }
        return (order, year)
    }
}
