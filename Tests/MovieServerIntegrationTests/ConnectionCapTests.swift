import Foundation
import MovieServer
import NetworkTestSupport
import ServerTestSupport
import Testing

/// What a server at its connection cap does, and how requests that must end a connection end it.
@Suite("Connection cap and closing")
struct ConnectionCapTests {
    static let liveRequest = "GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n"

    @Test("at the cap, idle kept-alive connections are closed, oldest first, to admit new clients; one in the middle of a request is not")
    func idleConnectionsMakeRoom() async throws {
        let limits = ConnectionLimits(headerTimeout: .seconds(300), idleTimeout: .seconds(300), maximumConnections: 16)
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
            #expect(ContinuousClock.now - started < .seconds(60), "a new client does not wait for the idle timeout of 300 s")

            try await midRequest.send(String(form.dropFirst("grant_type=".count)))
            #expect(try await midRequest.read(until: "access_token", limit: .seconds(10)) != nil, "the request being read was not cut")

            let oldest = try await idle[0].readUntilClosed(limit: .seconds(5))
            #expect(oldest.closedByServer, "the oldest idle connection made room")
            try await idle[19].send(Self.liveRequest)
            #expect(try await idle[19].read(until: #""live""#, limit: .seconds(10)) != nil, "the newest idle connection is still served")
        }
    }

    @Test("at the cap, connections that sent no request head within a second go first: behind 12 silent sockets at a cap of 8, a new client is served long before the header timeout")
    func silentConnectionsMakeRoom() async throws {
        let limits = ConnectionLimits(headerTimeout: .seconds(120), idleTimeout: .seconds(300), maximumConnections: 8)
        try await withMovieServer(limits: limits) { server in
            var silent: [RawConnection] = []
            for _ in 0..<12 { silent.append(try await RawConnection.open(port: server.port)) }
            let started = ContinuousClock.now
            let served = try await RawConnection.exchange(port: server.port, "GET /api/movies/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", limit: .seconds(60))
            #expect(served.status == 200)
            #expect(ContinuousClock.now - started < .seconds(30), "not the header timeout of 120 s")
            let first = try await silent[0].readUntilClosed(limit: .seconds(10))
            #expect(first.closedByServer, "the oldest silent connection made room")
            for connection in silent { await connection.close() }
        }
    }

    @Test("at the cap, a kept-alive connection that began its next head and stalled goes as a silent one does, not after the header timeout")
    func stalledNextHeadMakesRoom() async throws {
        let limits = ConnectionLimits(headerTimeout: .seconds(120), idleTimeout: .seconds(300), maximumConnections: 4)
        try await withMovieServer(limits: limits) { server in
            var stalled: [RawConnection] = []
            for _ in 0..<3 {
                let connection = try await RawConnection.open(port: server.port, sending: Self.liveRequest)
                #expect(try await connection.read(until: #""live""#, limit: .seconds(10)) != nil)
                try await connection.send("GET /health/li")
                stalled.append(connection)
            }
            // The fourth place is taken by a request whose body is still coming, which is never
            // cut: an idle fourth connection would close itself at the cap as it became idle.
            stalled.append(try await RawConnection.open(
                port: server.port,
                sending: "POST /api/auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\ngrant_type="
            ))
            let started = ContinuousClock.now
            let served = try await RawConnection.exchange(port: server.port, "GET /api/movies/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", limit: .seconds(60))
            #expect(served.status == 200)
            #expect(ContinuousClock.now - started < .seconds(30), "not the header timeout of 120 s")
            for connection in stalled { await connection.close() }
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

    @Test("a 413 to a request with Connection: close is sent, then the connection is closed for good, not only shut for writing")
    func tooLargeWithConnectionClose() async throws {
        try await withMovieServer(limits: Self.longTimeouts) { server in
            let connection = try await RawConnection.open(
                port: server.port,
                sending: "POST /api/auth/token HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\n"
                    + String(repeating: "a", count: 20_000)
            )
            let reply = try #require(try await connection.read(until: #""error":"invalid_request""#, limit: .seconds(60)))
            #expect(reply.hasPrefix("HTTP/1.1 413"), "\(reply)")
            let started = ContinuousClock.now
            let refusedAfter = await Self.secondsUntilWritesFail(connection, within: .seconds(40))
            #expect(refusedAfter != nil, "the server still reads what the client sends: the connection was never closed")
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
            var sent = 0
            do {
                while sent < 1000 {
                    try await connection.send(chunk)
                    sent += 1
                }
            } catch {}
            #expect(sent < 1000, "the server stopped taking the body: \(sent) chunks of 64 KiB went through")
            #expect(ContinuousClock.now - started < .seconds(30), "cut off by the linger's bound, not by a timeout of two minutes")
            #expect(try await connection.read(until: "HTTP/1.1 413", limit: .seconds(10)) != nil)
        }
    }

    /// Sends a little every 100 ms until a send fails (the server closed the connection and its
    /// kernel answered with a reset), or `limit` passes; how long that took, or `nil`.
    static func secondsUntilWritesFail(_ connection: RawConnection, within limit: Duration) async -> Duration? {
        let started = ContinuousClock.now
        while ContinuousClock.now - started < limit {
            do {
                try await connection.send(String(repeating: "b", count: 1024))
            } catch {
                return ContinuousClock.now - started
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return nil
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

    @Test("Host is counted in any case, and only Host: a lone `host` is accepted, `host` and `HOST` are two")
    func hostInAnyCase() async throws {
        try await withMovieServer { server in
            let lone = try await RawConnection.exchange(port: server.port, "GET /api/movies/1 HTTP/1.1\r\nhost: a\r\nX-Host: b\r\nConnection: close\r\n\r\n")
            #expect(lone.status == 200, "\(lone.text)")
            let two = try await RawConnection.exchange(port: server.port, "GET /api/movies/1 HTTP/1.1\r\nhost: a\r\nX-Host: c\r\nHOST: b\r\n\r\n")
            #expect(two.status == 400)
            #expect(two.text.contains("The request has 2 Host headers"), "\(two.text)")
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
