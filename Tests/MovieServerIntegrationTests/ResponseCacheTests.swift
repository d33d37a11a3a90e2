import Crypto
import Foundation
import MarqueeTestSupport
import MovieServer
import NetworkTestSupport
import ServerTestSupport
import Testing

/// The response cache: every cacheable catalogue answer, kept after the router's first answer and
/// then sent from the event loop, byte for byte the router's; bounded in bytes; behind the token.
@Suite("The response cache")
struct ResponseCacheTests {
    static func request(_ method: String, _ target: String, _ headers: String = "") -> String {
        EventLoopAnswering.request(method, target, headers)
    }

    /// The requests of every cacheable route, and whether the second of each is answered from the cache.
    static let requests: [(text: String, cached: Bool)] = [
        (request("GET", "/api/movies/topGrossing/2016"), true),
        (request("HEAD", "/api/movies/topRated/2016"), true),
        (request("GET", "/api/movies/6"), true),
        (request("GET", "/api/movies/006"), true),
        (request("HEAD", "/api/movies/7"), true),
        (request("GET", "/api/movies/7", "If-None-Match: *\r\n"), true),
        (request("GET", "/api/movies/424242"), true),
        (request("HEAD", "/api/movies/424243"), true),
        (request("GET", "/api/movies?query=zoot"), true),
        (request("GET", "/api/movies?year=2016&sort=rating&limit=3"), true),
        (request("GET", "/api/movies?limit=3&sort=rating&year=2016"), true),
        (request("HEAD", "/api/movies?query=finding%20dory"), true),
        (request("GET", "/api/movies"), true),
        (request("GET", "/api/movies?query=nothing-matches-this"), true),
        (request("GET", "/api/movies/99999999999999999999"), false),
        (request("GET", "/api/movies?limit=0"), false),
        (request("GET", "/api/movies?sort=sideways"), false),
        (request("GET", "/api/movies/6?x=1"), false),
        (request("POST", "/api/movies/6"), false),
    ]

    @Test("for every cacheable route, the cached answer is the router's, byte for byte but the Date; bad requests are never kept")
    func sameBytes() async throws {
        // One signing key for both, so that their cursors (and the pages that carry them) are the same.
        let auth = AuthConfiguration(requiresToken: false, signingKey: SymmetricKey(data: Data(repeating: 3, count: 32)))
        try await withMovieServer(auth: auth, answersOnEventLoop: false) { routed in
            try await withMovieServer(auth: auth) { direct in
                let before = try await EventLoopAnswering.eventLoopAnswers(direct)
                for (text, _) in Self.requests {
                    let expected = EventLoopAnswering.withoutDate(try await RawConnection.exchange(port: routed.port, text).text)
                    let first = EventLoopAnswering.withoutDate(try await RawConnection.exchange(port: direct.port, text).text)
                    let second = EventLoopAnswering.withoutDate(try await RawConnection.exchange(port: direct.port, text).text)
                    #expect(first == expected, "\(text)")
                    #expect(second == expected, "\(text)")
                }
                let answered = try await EventLoopAnswering.eventLoopAnswers(direct) - before
                // Each second request is a hit; so are the first of the top lists (ready from the start),
                // of /006 (the key of /6), of /7 with If-None-Match (kept by HEAD /7) and of the
                // listing with its parameters in another order (one key).
                let expected = Self.requests.filter(\.cached).count + 2 + 3
                #expect(answered == Double(expected))
                let cursor = try #require(try await ServerClient(server: direct).get("/api/movies?year=2016&sort=rating&limit=3").json?["next"] as? String)
                let next = Self.request("GET", "/api/movies?year=2016&sort=rating&limit=3&cursor=\(cursor)")
                let routedNext = EventLoopAnswering.withoutDate(try await RawConnection.exchange(port: routed.port, next).text)
                for _ in 0..<2 {
                    #expect(EventLoopAnswering.withoutDate(try await RawConnection.exchange(port: direct.port, next).text) == routedNext)
                }
            }
        }
    }

    @Test("past its size the cache evicts the least recently used answers; the bytes it holds stay under the cap, and the metrics say so")
    func capacity() async throws {
        var configuration = MovieServer.Configuration(host: "127.0.0.1", port: 0, storage: MemoryStorage(catalog: try Catalog.reference()), auth: .publicAccess, logger: quietLogger)
        configuration.responseCacheBytes = 16_384
        let server = await MovieServer(configuration: configuration)
        let running = try await server.start()
        try await finally(try await {
            let port = running.port
            _ = try await LoopbackHTTP.send(port: port, "/api/movies/999")
            for id in 1_000...1_400 {
                #expect(try await LoopbackHTTP.send(port: port, "/api/movies/\(id)").status == 404)
                if id % 20 == 0 { #expect(try await LoopbackHTTP.send(port: port, "/api/movies/6").status == 200) }
            }
            let hot = "/api/movies/topGrossing/2016"
            _ = try await LoopbackHTTP.send(port: port, hot)
            let metrics = PrometheusText(try await LoopbackHTTP.send(port: port, "/metrics").body)
            let bytes = try #require(metrics.value("marquee_response_cache_bytes", [:]))
            #expect(bytes <= 16_384 && bytes > 8_000, "\(bytes)")
            #expect((metrics.value("marquee_response_cache_evictions_total", [:]) ?? 0) > 100)
            #expect((metrics.value("marquee_response_cache_misses_total", [:]) ?? 0) >= 401)
            let before = metrics.value("marquee_response_cache_hits_total", [:]) ?? 0
            _ = try await LoopbackHTTP.send(port: port, "/api/movies/1400")
            let after = PrometheusText(try await LoopbackHTTP.send(port: port, "/metrics").body).value("marquee_response_cache_hits_total", [:]) ?? 0
            #expect(after == before + 1, "the most recent answer is still kept")
            _ = try await LoopbackHTTP.send(port: port, "/api/movies/6")
            _ = try await LoopbackHTTP.send(port: port, "/api/movies/999")
            let last = PrometheusText(try await LoopbackHTTP.send(port: port, "/metrics").body)
            #expect(last.value("marquee_response_cache_hits_total", [:]) == after + 1, "an early answer used all along is kept; one never used again is not")
        }()) { try? await running.stop() }
    }

    @Test("on a server that needs a token, a kept movie or 404 is never sent without a valid one")
    func behindTheToken() async throws {
        try await withMovieServer(auth: AuthConfiguration()) { server in
            let token = try await AccessTokens.accessToken(from: ServerClient(server: server))
            for path in ["/api/movies/6", "/api/movies/424242", "/api/movies?query=zoot"] {
                let authorized = Self.request("GET", path, "Authorization: Bearer \(token)\r\n")
                _ = try await RawConnection.exchange(port: server.port, authorized)
                let kept = try await RawConnection.exchange(port: server.port, authorized)
                #expect([200, 404].contains(kept.status))
                let before = try await EventLoopAnswering.eventLoopAnswers(server)
                for headers in ["", "Authorization: Bearer \(token)x\r\n", "Authorization: Basic \(token)\r\n"] {
                    let refused = try await RawConnection.exchange(port: server.port, Self.request("GET", path, headers))
                    #expect(refused.status == 401, "\(path) \(headers)")
                }
                #expect(try await EventLoopAnswering.eventLoopAnswers(server) == before)
            }
        }
    }
}
