import Foundation
import MarqueeTestSupport
import MovieServer
import NetworkTestSupport
import ServerTestSupport
import Testing

/// The top lists a server keeps encoded are answered on the connection's event loop, without
/// Hummingbird's router: the answers must be the router's, byte for byte, in request order, and
/// counted and timed as every other answer.
@Suite("Answers on the event loop")
struct EventLoopAnswerTests {

    /// The requests of the comparison, and whether each is one the event loop answers.
    static let requests: [(text: String, onEventLoop: Bool)] = [
        (EventLoopAnswering.request("GET", "/api/movies/topGrossing/2016"), true),
        (EventLoopAnswering.request("GET", "/api/movies/topRated/2016"), true),
        (EventLoopAnswering.request("HEAD", "/api/movies/topGrossing/2016"), true),
        (EventLoopAnswering.request("GET", "/api/movies/topRated/2016", "If-None-Match: *\r\n"), true),
        (EventLoopAnswering.request("GET", "/api/movies/topRated/2016", "If-None-Match: \"0123\", W/\"0123\"\r\n"), true),
        (EventLoopAnswering.request("GET", "/api/movies/topGrossing/2016", "Content-Length: 3\r\n").replacingOccurrences(of: "\r\n\r\n", with: "\r\n\r\nabc"), true),
        ("GET /api/movies/topGrossing/2016 HTTP/1.0\r\n\r\n", true),
        ("HEAD /api/movies/topRated/2016 HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /api/movies/topRated/2016 HTTP/1.0\r\n\r\n", true),
        (EventLoopAnswering.request("GET", "/api/movies/topGrossing/02016"), false),
        (EventLoopAnswering.request("GET", "/api/movies/topGrossing/0"), false),
        (EventLoopAnswering.request("GET", "/api/movies/topGrossing/10000"), false),
        (EventLoopAnswering.request("GET", "/api/movies/topGrossing/2016/"), false),
        (EventLoopAnswering.request("GET", "/api/movies/topGrossing/2016?page=2"), false),
        (EventLoopAnswering.request("GET", "/api/movies/topgrossing/2016"), false),
        (EventLoopAnswering.request("GET", "/api/movies/topGrossing/20x6"), false),
        (EventLoopAnswering.request("POST", "/api/movies/topGrossing/2016"), false),
        (EventLoopAnswering.request("GET", "/api/movies/1"), false),
    ]

    @Test("a kept list gets the router's answer, byte for byte, and everything else still goes to the router")
    func sameBytesAsTheRouter() async throws {
        try await withMovieServer(answersOnEventLoop: false) { routed in
            try await withMovieServer { direct in
                for (text, _) in Self.requests {
                    let expected = try await RawConnection.exchange(port: routed.port, text)
                    let answer = try await RawConnection.exchange(port: direct.port, text)
                    #expect(expected.closedByServer && answer.closedByServer)
                    #expect(EventLoopAnswering.withoutDate(answer.text) == EventLoopAnswering.withoutDate(expected.text), "\(text)")
                    #expect(answer.text.contains("\r\nDate: "), "\(text)")
                }
                #expect(try await EventLoopAnswering.eventLoopAnswers(direct) == Double(Self.requests.count { $0.onEventLoop } + 1), "the keep-alive pair is two")
                #expect(try await EventLoopAnswering.eventLoopAnswers(routed) == 0)
            }
        }
    }

    @Test("pipelined requests are answered in the order they were sent, routed or not")
    func pipelinedOrder() async throws {
        try await withMovieServer { server in
            let client = ServerClient(server: server)
            let paths = ["/api/movies/1", "/api/movies/topGrossing/2016", "/api/movies/2", "/api/movies/topRated/2016", "/api/movies/topGrossing/2016"]
            var expectedTags: [String] = []
            for path in paths {
                expectedTags.append(try #require(try await client.get(path).headers.first(name: "etag")))
            }
            let pipelined = paths.enumerated().map { index, path in
                "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n" + (index == paths.count - 1 ? "Connection: close\r\n" : "") + "\r\n"
            }.joined()
            let reply = try await RawConnection.exchange(port: server.port, pipelined)
            let tags = reply.text.matches(of: /ETag: ("[0-9a-f]+")\r\n/).map { String($0.output.1) }
            #expect(tags == expectedTags)
            #expect(reply.text.matches(of: /HTTP\/1.1 200 OK\r\n/).count == paths.count)
        }
    }

    @Test("a HEAD answered on the event loop leaves the routed answer after it on the connection its body")
    func headBeforeARoutedAnswer() async throws {
        try await withMovieServer { server in
            let client = ServerClient(server: server)
            let list = try await client.get("/api/movies/topGrossing/2016")
            let answeredBefore = try await EventLoopAnswering.eventLoopAnswers(server)
            let pipelined = "HEAD /api/movies/topGrossing/2016 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                + EventLoopAnswering.request("GET", "/api/movies/2")
            let reply = try await RawConnection.exchange(port: server.port, pipelined)
            let parts = reply.text.components(separatedBy: "HTTP/1.1 200 OK\r\n")
            #expect(parts.count == 3)
            let headAnswer = parts.count == 3 ? parts[1] : ""
            #expect(headAnswer.hasSuffix("\r\n\r\n") && headAnswer.contains("Content-Length: \(list.body.count)\r\n"), "a HEAD's answer has no body")
            #expect(try await EventLoopAnswering.eventLoopAnswers(server) == answeredBefore + 1, "the HEAD alone")
            let movie = try await client.get("/api/movies/2")
            #expect(reply.text.hasSuffix("\r\n\r\n" + String(decoding: movie.body, as: UTF8.self)))
        }
    }

    @Test("answers on the event loop are counted by route, method and status, and timed")
    func counted() async throws {
        try await withMovieServer { server in
            let client = ServerClient(server: server)
            let tag = try #require(try await client.get("/api/movies/topGrossing/2016").headers.first(name: "etag"))
            _ = try await client.get("/api/movies/topGrossing/2016")
            _ = try await client.get("/api/movies/topGrossing/2016", method: .HEAD)
            _ = try await client.get("/api/movies/topGrossing/2016", headers: [("If-None-Match", tag)])
            _ = try await client.get("/api/movies/topRated/2016")
            let metrics = PrometheusText(try await client.get("/metrics").body)
            let route = "/api/movies/topGrossing/{year}"
            #expect(metrics.value("marquee_http_requests_total", ["route": route, "method": "GET", "status": "200"]) == 2)
            #expect(metrics.value("marquee_http_requests_total", ["route": route, "method": "HEAD", "status": "200"]) == 1)
            #expect(metrics.value("marquee_http_requests_total", ["route": route, "method": "GET", "status": "304"]) == 1)
            #expect(metrics.value("marquee_http_requests_total", ["route": "/api/movies/topRated/{year}", "method": "GET", "status": "200"]) == 1)
            #expect(metrics.value("marquee_http_request_duration_seconds_count", ["route": route, "method": "GET"]) == 3)
            #expect(metrics.value("marquee_http_event_loop_answers_total", [:]) == 5)
        }
    }

    @Test("a connection answered on the event loop is still closed when idle")
    func idleTimeout() async throws {
        try await withMovieServer(limits: ConnectionLimits(idleTimeout: .seconds(2))) { server in
            let connection = try await RawConnection.open(port: server.port, sending: "GET /api/movies/topGrossing/2016 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let reply = try await connection.readUntilClosed(limit: .seconds(20))
            #expect(reply.closedByServer)
            #expect(reply.status == 200)
            #expect(try await EventLoopAnswering.eventLoopAnswers(server) == 1)
        }
    }

    @Test("stopping the server closes a connection idle after an answer from the event loop")
    func stopClosesIdleConnections() async throws {
        try await withMovieServer { server in
            let connection = try await RawConnection.open(port: server.port)
            try await connection.send(EventLoopAnswering.request("GET", "/api/movies/topGrossing/2016").replacingOccurrences(of: "Connection: close\r\n", with: ""))
            let answered = try await connection.read(until: "}]}]", limit: .seconds(20))
            #expect(answered?.hasPrefix("HTTP/1.1 200 OK") == true)
            try await server.running.stop()
            let reply = try await connection.readUntilClosed(limit: .seconds(20))
            #expect(reply.closedByServer)
        }
    }

    @Test("a request being read when the server stops is answered, then its connection is closed")
    func stopWaitsForTheRequestBeingRead() async throws {
        try await withMovieServer { server in
            let connection = try await RawConnection.open(port: server.port)
            try await connection.send("GET /api/movies/topGrossing/2016 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 6\r\n\r\nabc")
            let readByServer = try await eventually { try connection.unreadByServer(serverPort: server.port) == 0 }
            #expect(readByServer, "the server took in the head and half the body")
            let stopping = Task { try await server.running.stop() }
            let listenerClosed = try await eventually {
                guard let probe = try? await RawConnection.open(port: server.port) else { return true }
                await probe.close()
                return false
            }
            #expect(listenerClosed, "the server is shutting down before the rest of the body is sent")
            try await connection.send("def")
            let reply = try await connection.readUntilClosed(limit: .seconds(20))
            try await stopping.value
            #expect(reply.closedByServer)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(reply.text.hasSuffix("}]}]"))
            let metrics = PrometheusText(Data(server.server.metrics.exposition().utf8))
            #expect(metrics.value("marquee_http_event_loop_answers_total", [:]) == 1)
        }
    }

    @Test("with tokens required, a token is verified by the router once, then accepted on the event loop until it expires")
    func verifiedTokens() async throws {
        let clock = ManualClock()
        let auth = AuthConfiguration(accessTokenLifetime: .seconds(600), now: clock.now)
        try await withMovieServer(auth: auth, answersOnEventLoop: false) { routed in
            try await withMovieServer(auth: auth) { direct in
                let token = try await AccessTokens.accessToken(from: ServerClient(server: direct))
                let authorized = EventLoopAnswering.request("GET", "/api/movies/topGrossing/2016", "Authorization: Bearer \(token)\r\n")
                let first = try await RawConnection.exchange(port: direct.port, authorized)
                #expect(first.status == 200)
                #expect(try await EventLoopAnswering.eventLoopAnswers(direct) == 0, "a token not seen before is verified by the router")

                let otherToken = try await AccessTokens.accessToken(from: ServerClient(server: routed))
                for _ in 0..<3 {
                    let answer = try await RawConnection.exchange(port: direct.port, authorized)
                    let expected = try await RawConnection.exchange(port: routed.port, authorized.replacingOccurrences(of: token, with: otherToken))
                    #expect(EventLoopAnswering.withoutDate(answer.text) == EventLoopAnswering.withoutDate(expected.text))
                    #expect(answer.text.contains("Cache-Control: private, max-age=60\r\n"))
                }
                #expect(try await EventLoopAnswering.eventLoopAnswers(direct) == 3)

                let refusals = [
                    "",
                    "Authorization: Bearer \(token)x\r\n",
                    "Authorization: Basic \(token)\r\n",
                    "Authorization: Bearer \(token)\r\nAuthorization: Bearer \(token)\r\n",
                ]
                for headers in refusals {
                    let refused = try await RawConnection.exchange(port: direct.port, EventLoopAnswering.request("GET", "/api/movies/topGrossing/2016", headers))
                    #expect(refused.status == 401, "\(headers)")
                }
                #expect(direct.challenges == refusals.count)

                clock.advance(by: 601 + 60)
                let expired = try await RawConnection.exchange(port: direct.port, authorized)
                #expect(expired.status == 401, "an accepted token is refused once it expires")
                #expect(try await EventLoopAnswering.eventLoopAnswers(direct) == 3)
            }
        }
    }
}
