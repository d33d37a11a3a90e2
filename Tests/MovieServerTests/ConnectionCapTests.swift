import Foundation
import MarqueeTestSupport
import MovieServer
import Testing

/// What a server at its connection cap does, and how requests that must end a connection end it.
@Suite("Connection cap and closing")
struct ConnectionCapTests {
    static let liveRequest = "GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n"

    @Test("at the cap, idle kept-alive connections are closed, oldest first, to admit new clients; one in the middle of a request is not")
    func idleConnectionsMakeRoom() async throws {
        let limits = ConnectionLimits(headerTimeout: .seconds(30), idleTimeout: .seconds(60), maximumConnections: 16)
        try await withMovieServer(limits: limits) { server in
            let form = "grant_type=client_credentials&client_id=marquee-dev&client_secret=marquee-dev-secret"
            let midRequest = try await RawConnection.open(
                port: server.port,
                sending: "POST /api/auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\n\r\ngrant_type="
            )
            var idle: [RawConnection] = []
            for index in 0..<20 {
                let connection = try await RawConnection.open(port: server.port, sending: Self.liveRequest)
                #expect(try await connection.read(until: #""live""#, limit: .seconds(10)) != nil, "connection \(index) is served")
                idle.append(connection)
            }
            let started = ContinuousClock.now
            let served = try await RawConnection.exchange(port: server.port, "GET /api/movies/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(served.status == 200)
            #expect(ContinuousClock.now - started < .seconds(5), "a new client does not wait for the idle timeout")

            try await midRequest.send(String(form.dropFirst("grant_type=".count)))
            #expect(try await midRequest.read(until: "access_token", limit: .seconds(10)) != nil, "the request being read was not cut")

            let oldest = try await idle[0].readUntilClosed(limit: .seconds(5))
            #expect(oldest.closedByServer, "the oldest idle connection made room")
            try await idle[19].send(Self.liveRequest)
            #expect(try await idle[19].read(until: #""live""#, limit: .seconds(10)) != nil, "the newest idle connection is still served")
        }
    }

    @Test("below the cap, idle kept-alive connections stay open")
    func belowTheCapNothingCloses() async throws {
        let limits = ConnectionLimits(headerTimeout: .seconds(30), idleTimeout: .seconds(60), maximumConnections: 16)
        try await withMovieServer(limits: limits) { server in
            var idle: [RawConnection] = []
            for _ in 0..<14 {
                let connection = try await RawConnection.open(port: server.port, sending: Self.liveRequest)
                #expect(try await connection.read(until: #""live""#, limit: .seconds(10)) != nil)
                idle.append(connection)
            }
            let served = try await RawConnection.exchange(port: server.port, "GET /api/movies/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(served.status == 200)
            for connection in idle {
                try await connection.send(Self.liveRequest)
                #expect(try await connection.read(until: #""live""#, limit: .seconds(10)) != nil)
            }
        }
    }

    /// Timeouts far beyond what the linger takes: a connection closed before them was closed by it.
    static let longTimeouts = ConnectionLimits(headerTimeout: .seconds(120), idleTimeout: .seconds(120), maximumConnections: 1024)

    @Test("a 413 to a request with Connection: close is sent, then the connection closes without waiting for the client")
    func tooLargeWithConnectionClose() async throws {
        try await withMovieServer(limits: Self.longTimeouts) { server in
            let started = ContinuousClock.now
            let connection = try await RawConnection.open(
                port: server.port,
                sending: "POST /api/auth/token HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\n"
                    + String(repeating: "a", count: 20_000)
            )
            let reply = try await connection.readUntilClosed(limit: .seconds(60))
            #expect(reply.status == 413, "\(reply.text)")
            #expect(reply.text.contains(#""error":"invalid_request""#))
            #expect(reply.closedByServer)
            #expect(ContinuousClock.now - started < .seconds(30), "closed after a linger of 2 s (on a loaded machine, later), not by a timeout of two minutes")
        }
    }

    @Test("a client that keeps sending after a 413 is cut off once the linger's bound is drained")
    func lingerIsBounded() async throws {
        try await withMovieServer(limits: Self.longTimeouts) { server in
            let connection = try await RawConnection.open(
                port: server.port,
                sending: "POST /api/auth/token HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000000\r\n\r\n"
            )
            let chunk = String(repeating: "a", count: 64 * 1024)
            let started = ContinuousClock.now
            let flood = Task {
                for _ in 0..<1000 { try await connection.send(chunk) }
            }
            defer { flood.cancel() }
            let reply = try await connection.readUntilClosed(limit: .seconds(60))
            #expect(reply.status == 413)
            #expect(reply.closedByServer)
            #expect(ContinuousClock.now - started < .seconds(30), "cut off by the linger, not by a timeout of two minutes")
        }
    }

    @Test("an HTTP/1.1 request without Host, or any request with two, is a JSON 400 and the connection closes", arguments: [
        "GET /api/movies/1 HTTP/1.1\r\n\r\n",
        "GET /api/movies/1 HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
        "GET /api/movies/1 HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n",
    ])
    func hostIsRequired(request: String) async throws {
        try await withMovieServer { server in
            let reply = try await RawConnection.exchange(port: server.port, request)
            #expect(reply.status == 400, "\(reply.text)")
            #expect(reply.text.contains(#""error":"invalid_request""#))
            #expect(reply.text.contains("Host"))
            #expect(reply.closedByServer)
        }
    }

    @Test("an HTTP/1.0 request may leave Host out")
    func http10WithoutHost() async throws {
        try await withMovieServer { server in
            let reply = try await RawConnection.exchange(port: server.port, "GET /api/movies/1 HTTP/1.0\r\n\r\n")
            #expect(reply.status == 200)
        }
    }

    @Test("a URL or a header block over the limit is a 400 with the JSON body of every other 400", arguments: [
        "GET /api/movies?query=\(String(repeating: "a", count: 100_000)) HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /api/movies/1 HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 100_000))\r\n\r\n",
        "GET /api/movies/1 HTTP/1.1\r\nHost: x\r\n" + (0..<2000).map { "X-Many-\($0): v\r\n" }.joined() + "\r\n",
        "GET /api/movies/1 HTTP/1.1\r\nHost x\r\n\r\n",
    ])
    func oversizedHeadIsJSON(request: String) async throws {
        try await withMovieServer { server in
            let reply = try await RawConnection.exchange(port: server.port, request)
            #expect(reply.status == 400, "\(reply.text.prefix(300))")
            #expect(reply.text.contains(#""error":"invalid_request""#), "\(reply.text.prefix(300))")
            #expect(reply.text.contains("Content-Type: application/json"))
            #expect(reply.closedByServer)
        }
    }
}
