import Foundation
import MovieServer
import NetworkTestSupport
import ServerTestSupport
import Testing

/// What the server does with requests no well-behaved client sends: broken framing is the
/// client's fault (a 400, never a 500), `CONNECT` and HTTP/1.0 connections end as HTTP says, and
/// slow clients are cut off without holding others up.
@Suite("Connection hardening")
struct ConnectionHardeningTests {
    @Test("malformed framing is a JSON 400, never a 500", arguments: [
        "POST /api/auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nabc\r\n",
        "POST /api/auth/token HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\nabc",
        "POST /api/auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabc",
    ])
    func malformedFraming(request: String) async throws {
        try await withMovieServer { server in
            let connection = try await RawConnection.open(port: server.port)
            try await connection.send(request)
            if request.hasSuffix("abc") { await connection.closeWriting() }
            let reply = try await connection.readUntilClosed(limit: .seconds(20))
            #expect(reply.status == 400, "\(reply.text)")
            #expect(reply.text.contains(#""error":"invalid_request""#))
        }
    }

    @Test("CONNECT is a 405 with Allow, and the connection is closed")
    func connectIsRefused() async throws {
        try await withMovieServer { server in
            let reply = try await RawConnection.exchange(port: server.port, "CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n")
            #expect(reply.closedByServer)
            #expect(reply.status == 405)
            #expect(reply.text.contains("Allow: GET, HEAD, POST"))
        }
    }

    @Test("an HTTP/1.0 request without keep-alive has its connection closed after the answer")
    func http10Closes() async throws {
        try await withMovieServer { server in
            let reply = try await RawConnection.exchange(port: server.port, "GET /api/movies/1 HTTP/1.0\r\n\r\n")
            #expect(reply.closedByServer)
            #expect(reply.status == 200)
            #expect(reply.text.hasSuffix("}]}"))
        }
    }

    @Test("a request whose body stops coming is cut off after the idle timeout, not the longer head timeout")
    func idleWhileReadingTheBody() async throws {
        let limits = ConnectionLimits(headerTimeout: .seconds(60), idleTimeout: .seconds(2), maximumConnections: 1024)
        try await withMovieServer(limits: limits) { server in
            let started = ContinuousClock.now
            let stalled = try await RawConnection.open(port: server.port, sending: "POST /api/auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\ngrant_type=")
            let reply = try await stalled.readUntilClosed(limit: .seconds(20))
            #expect(reply.closedByServer, "closed by the server's idle timeout, not the head timeout of a minute")
            #expect(ContinuousClock.now - started < .seconds(30))

            let answered = try await RawConnection.exchange(port: server.port, "GET /api/movies/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(answered.status == 200)
        }
    }

    @Test("a body trickled a byte at a time, each within the idle timeout, is cut off once it falls below 1 KiB/s after the header timeout")
    func trickledBodyIsCutOff() async throws {
        let limits = ConnectionLimits(headerTimeout: .seconds(2), idleTimeout: .seconds(60), maximumConnections: 1024)
        try await withMovieServer(limits: limits) { server in
            let trickle = try await RawConnection.open(port: server.port, sending: "POST /device/sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 8192\r\n\r\n")
            let started = ContinuousClock.now
            var cut = false
            for _ in 0..<40 where !cut {
                try await Task.sleep(for: .milliseconds(500))
                do { try await trickle.send("a") } catch { cut = true }
                if !trickle.isActive { cut = true }
            }
            #expect(cut, "a byte every half second is cut off, though the idle timeout is a minute")
            #expect(ContinuousClock.now - started < .seconds(20))
            await trickle.close()
        }
    }

    @Test("a kept-alive connection idle longer than the header timeout still serves its next request, and closes after the idle timeout")
    func keepAliveOutlastsTheHeaderTimeout() async throws {
        let limits = ConnectionLimits(headerTimeout: .seconds(1), idleTimeout: .seconds(15), maximumConnections: 1024)
        try await withMovieServer(limits: limits) { server in
            let connection = try await RawConnection.open(port: server.port, sending: "GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await connection.read(until: #""live""#, limit: .seconds(20)) != nil)
            let answered = ContinuousClock.now
            try await Task.sleep(for: .seconds(2))
            try await connection.send("GET /api/movies/1 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await connection.read(until: "}]}", limit: .seconds(20)) != nil, "served after twice the header timeout of quiet")
            let secondAnswered = ContinuousClock.now
            let reply = try await connection.readUntilClosed(limit: .seconds(30))
            #expect(reply.closedByServer, "the idle timeout closes it")
            #expect(ContinuousClock.now - secondAnswered >= .seconds(5), "not before the idle timeout of 15 s (what a loaded test process sees late is allowed for)")
            #expect(secondAnswered - answered >= .seconds(2))
        }
    }

    @Test("a head that begins after a kept-alive pause must be complete within the header timeout of its first byte")
    func headAfterKeepAliveIsTimed() async throws {
        let limits = ConnectionLimits(headerTimeout: .seconds(1), idleTimeout: .seconds(60), maximumConnections: 1024)
        try await withMovieServer(limits: limits) { server in
            let connection = try await RawConnection.open(port: server.port, sending: "GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await connection.read(until: #""live""#, limit: .seconds(20)) != nil)
            try await Task.sleep(for: .seconds(2))
            let started = ContinuousClock.now
            try await connection.send("GET /api/mov")
            let trickle = Task {
                for _ in 0..<60 {
                    try await Task.sleep(for: .milliseconds(250))
                    try await connection.send("i")
                }
            }
            defer { trickle.cancel() }
            let reply = try await connection.readUntilClosed(limit: .seconds(30))
            #expect(reply.closedByServer, "closed by the header timeout, not the idle timeout of a minute")
            #expect(ContinuousClock.now - started < .seconds(14), "a trickle of 15 s was cut short")
        }
    }

    @Test("100 slowloris connections are closed by the header timeout, while another client is served")
    func slowlorisIsCutOff() async throws {
        let limits = ConnectionLimits(headerTimeout: .seconds(2), idleTimeout: .seconds(60), maximumConnections: 1024)
        try await withMovieServer(limits: limits) { server in
            var slow: [RawConnection] = []
            for index in 0..<100 {
                let connection = try await RawConnection.open(port: server.port)
                try await connection.send(index.isMultiple(of: 2) ? "GET /api/mov" : "GET /api/movies/1 HTTP/1.1\r\nHost: x\r\nX-Slow: a")
                slow.append(connection)
            }
            let served = try await RawConnection.exchange(port: server.port, "GET /api/movies/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(served.status == 200, "another client is served while 100 slow connections are open")

            let closed = try await withThrowingTaskGroup(of: Bool.self) { group in
                for (index, connection) in slow.enumerated() {
                    group.addTask {
                        // Keep trickling: a byte every half second does not extend the head timeout.
                        let trickle = Task {
                            for _ in 0..<40 {
                                try await Task.sleep(for: .milliseconds(500))
                                try await connection.send(index.isMultiple(of: 2) ? "i" : "a")
                            }
                        }
                        defer { trickle.cancel() }
                        return try await connection.readUntilClosed(limit: .seconds(30)).closedByServer
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(closed == 100, "every slow connection was closed by the server, not by the test's bound")
        }
    }
}
