import Foundation
import MarqueeTestSupport
import NIOConcurrencyHelpers
import NetworkTestSupport
import ServerTestSupport
import Testing

/// `marquee serve` as a separate process on a loopback port.
@Suite("marquee serve")
struct ServeCommandTests {
    let marquee = MarqueeProcess()

    @Test("serves a catalog file until interrupted, and the client commands use it")
    func servesUntilInterrupted() async throws {
        let catalog = TestFolders.temporary.appendingPathComponent("serve-\(UUID()).json")
        try Data(#"[{"name":"Heat","id":77,"year":1995,"releaseDate":"1995-12-15","grossing":187436818,"rating":8.3,"cast":[{"name":"Al Pacino"}]}]"#.utf8)
            .write(to: catalog)
        defer { try? FileManager.default.removeItem(at: catalog) }

        let server = try marquee.launch(["serve", "--port", "0", "--catalog", catalog.path])
        let line = try #require(await server.nextErrorLine(containing: "Marquee movie API listening on"))
        let baseURL = try #require(line.split(separator: " ").last.map(String.init))
        #expect(baseURL.hasPrefix("http://127.0.0.1:"))

        let outcome = try await marquee.run(["top-rated", "--year", "1995", "--env", baseURL])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("Heat (1995)"))
        #expect(outcome.standardOutput.contains("$187,436,818"))
        #expect(outcome.standardOutput.contains("8.3"))

        #expect(await server.signal() == 0)
    }

    @Test("a catalog that cannot be loaded fails with one line naming the file")
    func badCatalog() async throws {
        let outcome = try await marquee.run(["serve", "--port", "0", "--catalog", "/nonexistent/movies.json"])
        #expect(outcome.status != 0)
        #expect(outcome.errorLines.count == 1)
        #expect(outcome.standardError.contains("cannot read the catalog /nonexistent/movies.json"))
    }

    @Test("a ready timeout outside 1 to 60 seconds fails with one line", arguments: ["0", "61", "-1"])
    func badReadyTimeout(value: String) async throws {
        let outcome = try await marquee.run(["serve", "--port", "0", "--ready-timeout=\(value)"])
        #expect(outcome.status != 0)
        #expect(outcome.errorLines.count == 1, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("the ready timeout must be from 1 to 60 seconds, not \(value)"))
    }

    @Test("a query timeout outside 1 to 600 seconds, or without a database, or a cache size outside 1 to 65536 MiB, fails with one line", arguments: [
        (["--query-timeout=0", "--database", "postgres://u@127.0.0.1:9/db"], "the query timeout must be from 1 to 600 seconds, not 0"),
        (["--query-timeout=601", "--database", "postgres://u@127.0.0.1:9/db"], "the query timeout must be from 1 to 600 seconds, not 601"),
        (["--query-timeout=30"], "--query-timeout is for a --database (PostgreSQL or SQLite)"),
        (["--query-timeout=30", "--catalog", "/tmp/never-created-\(UUID().uuidString).json"], "--query-timeout is for a --database (PostgreSQL or SQLite)"),
        (["--cache-size", "0"], "the response cache size must be from 1 to 65536 MiB, not 0"),
        (["--cache-size", "65537"], "the response cache size must be from 1 to 65536 MiB, not 65537"),
    ])
    func badQueryTimeout(arguments: [String], message: String) async throws {
        let outcome = try await marquee.run(["serve", "--port", "0"] + arguments)
        #expect(outcome.status != 0)
        #expect(outcome.errorLines.count == 1, "\(outcome.standardError)")
        #expect(outcome.standardError.contains(message), "\(outcome.standardError)")
    }

    /// The three connections are busy (each has sent a request's head and part of its body): an
    /// idle kept-alive connection, or one that has sent no whole head within a second, would be
    /// closed at the cap to admit the new one (`ConnectionCapTests`).
    @Test("--max-connections: at the limit a new connection waits, unanswered, until an open one closes")
    func maximumConnections() async throws {
        let server = try marquee.launch(["serve", "--port", "0", "--public", "--max-connections", "3", "--log-level", "notice"])
        let line = try #require(await server.nextErrorLine(containing: "Marquee movie API listening on"))
        let port = try #require(URL(string: String(line.split(separator: " ").last ?? ""))?.port)
        try await finally(try await {
            var open: [RawConnection] = []
            for _ in 0..<3 {
                let connection = try await RawConnection.open(port: port)
                try await connection.send("POST /api/auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\ngrant_type=")
                open.append(connection)
            }
            // Time for the server to accept those three alone: it accepts up to four waiting
            // connections in one read of its socket (NIO's `maxMessagesPerRead`) before the cap
            // stops it, so a fourth already waiting beside them would be let in with them.
            try await Task.sleep(for: .seconds(1))
            let answered = NIOLockedValueBox(false)
            let waiting = Task {
                let reply = try await RawConnection.exchange(port: port, "GET /health/live HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", limit: .seconds(60))
                answered.withLockedValue { $0 = true }
                return reply
            }
            try await Task.sleep(for: .seconds(1))
            #expect(!answered.withLockedValue { $0 }, "a fourth connection is not served while three are open")
            let before = ContinuousClock.now
            await open[0].close()
            let reply = try await waiting.value
            #expect(reply.status == 200, "answered once a connection closed")
            #expect(ContinuousClock.now - before < .seconds(30))
            for connection in open.dropFirst() { await connection.close() }
        }()) { _ = await server.signal(SIGTERM) }
    }

    @Test("a port in use fails with one line")
    func portInUse() async throws {
        try await withMovieServer { running in
            let outcome = try await marquee.run(["serve", "--port", "\(running.port)"])
            #expect(outcome.status != 0)
            #expect(outcome.errorLines.count == 1, "\(outcome.standardError)")
            #expect(outcome.standardError.hasPrefix("marquee: cannot serve on 127.0.0.1:\(running.port)"))
            #expect(outcome.standardError.contains("is already in use; stop the other server or choose another --port"))
        }
    }
}
