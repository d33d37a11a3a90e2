import Foundation
import MarqueeTestSupport
@testable import MovieServer
import NetworkTestSupport
import ServerTestSupport
import Testing

/// The stream is answered on the event loop (`EventStreamResponder`), before the router: on a
/// connection of its own or behind other requests, in the order the requests came, and a refused
/// stream request leaves the connection to the requests after it.
@Suite("Event streams on a connection", .timeLimit(.minutes(2)))
struct EventStreamConnectionTests {
    static func request(_ target: String, token: String, method: String = "GET") -> String {
        "\(method) \(target) HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(token)\r\n\r\n"
    }

    @Test("a stream pipelined behind a movie request begins after the movie's answer; a stream after answered requests on a kept-alive connection opens")
    func behindOtherRequests() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { client in
            let token = try await FeedStreams.appToken(client)
            let pipelined = try await RawConnection.open(
                port: client.server.port,
                sending: Self.request("/api/movies/topGrossing/2016", token: token) + Self.request("/api/events", token: token)
            )
            let text = try #require(try await pipelined.read(until: "event: ready", limit: .seconds(20)), "no stream after the movie answer")
            let movieAnswer = try #require(text.range(of: "application/json"))
            let streamHead = try #require(text.range(of: "text/event-stream"))
            #expect(movieAnswer.lowerBound < streamHead.lowerBound, "\(text)")
            #expect(text.components(separatedBy: "HTTP/1.1 200").count == 3, "two answers, both 200: \(text)")
            await pipelined.close()

            let sequential = try await RawConnection.open(port: client.server.port, sending: Self.request("/api/movies/topRated/2016", token: token))
            #expect(try await sequential.read(until: "]", limit: .seconds(20)) != nil)
            try await sequential.send(Self.request("/api/events", token: token))
            #expect(try await sequential.read(until: "event: ready", limit: .seconds(20)) != nil)
            #expect(try await eventually(limit: .seconds(10)) { client.server.server.openEventStreams == 1 })
            await sequential.close()
            #expect(try await eventually(limit: .seconds(10)) { client.server.server.openEventStreams == 0 }, "a closed connection gives its place back")
        }
    }

    @Test("a refused stream request is answered as the router would, and the requests after it on the connection are answered")
    func refusalKeepsTheConnection() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { client in
            let token = try await FeedStreams.appToken(client)
            let connection = try await RawConnection.open(
                port: client.server.port,
                sending: Self.request("/api/events", token: "nonsense") + Self.request("/api/movies/topGrossing/2016", token: token)
            )
            let text = try #require(try await connection.read(until: "]", limit: .seconds(20)), "the request after the refused stream was not answered")
            #expect(text.hasPrefix("HTTP/1.1 401"), "\(text)")
            #expect(text.lowercased().contains("www-authenticate: bearer"), "\(text)")
            #expect(text.contains(#""error":"invalid_token""#))
            #expect(text.components(separatedBy: "HTTP/1.1 200").count == 2, "\(text)")
            try await connection.send(Self.request("/api/events", token: token))
            #expect(try await connection.read(until: "event: ready", limit: .seconds(20)) != nil, "a stream on the same connection after a refusal")
            await connection.close()
        }
    }

    @Test("another method on /api/events is a 405 that names GET and HEAD")
    func wrongMethod() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { client in
            let token = try await FeedStreams.appToken(client)
            let answer = try await client.get("/api/events", method: .POST, headers: [("Authorization", "Bearer \(token)")])
            #expect(answer.status == 405)
            let allowed = answer.headers.first { $0.0.lowercased() == "allow" }?.1 ?? ""
            #expect(allowed.contains("GET") && allowed.contains("HEAD"), "\(allowed)")
            #expect(client.server.server.openEventStreams == 0)
        }
    }

    @Test("a request sent after an accepted stream closes the connection and gives the stream's place back")
    func requestAfterStream() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { client in
            let token = try await FeedStreams.appToken(client)
            let connection = try await RawConnection.open(port: client.server.port, sending: Self.request("/api/events", token: token))
            #expect(try await connection.read(until: "event: ready", limit: .seconds(20)) != nil)
            try await connection.send(Self.request("/api/movies/topGrossing/2016", token: token))
            let reply = try await connection.readUntilClosed(limit: .seconds(20))
            #expect(reply.closedByServer)
            #expect(!reply.text.contains("application/json"), "no answer is written into the stream: \(reply.text)")
            #expect(try await eventually(limit: .seconds(10)) { client.server.server.openEventStreams == 0 })
        }
    }

    @Test("a graceful shutdown is not held by a stream whose reader takes nothing (megabytes of events unsent), and waits for its connection's end")
    func shutdownWithStalledReader() async throws {
        let catalog = try Catalog(movies: SyntheticCatalog.movies(count: 2_000, seed: 5, years: 2010...2019))
        var configuration = MovieServer.Configuration(
            host: "127.0.0.1", port: 0, storage: MemoryStorage(catalog: catalog), auth: PersonSignIn.auth(), logger: quietLogger
        )
        configuration.shutdownTimeout = .seconds(90)
        configuration.feed.queueCapacity = 100_000
        let server = await MovieServer(configuration: configuration)
        let running = try await server.start()
        let client = ServerClient(server: TestMovieServer(server: server, running: running))
        let alice = try await PersonSignIn.tokens("alice", on: client)
        let stalled = try StalledReader(port: client.server.port, path: "/api/events", token: alice.access)
        defer { stalled.close() }
        #expect(try await eventually(limit: .seconds(10)) { server.openEventStreams == 1 })
        let watchlister = try await Watchlister(client, token: alice.access)
        // More than the kernel's socket buffers take: the stream's last writes wait in the server.
        #expect(try await FeedStreams.flood(watchlister, catalog: catalog, rounds: 16) { true } == 16)
        #expect(server.openEventStreams == 1, "a large queue keeps the stalled reader connected")
        let began = ContinuousClock.now
        try await running.stop()
        #expect(ContinuousClock.now - began < .seconds(30), "the shutdown waited on the stalled stream")
        #expect(server.openStreamConnections == 0, "the server said it stopped while the ended stream's connection was still open (its end waits on the reader)")
    }

    @Test("a client that half-closes before its first request, or after a refused stream request, has its connection closed, not held to the idle timeout")
    func halfCloseBeforeTheVerdict() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { client in
            let silent = try await RawConnection.open(port: client.server.port)
            await silent.closeWriting()
            #expect(try await silent.readUntilClosed(limit: .seconds(10)).closedByServer, "a connection with no request")

            let refused = try await RawConnection.open(port: client.server.port, sending: Self.request("/api/events", token: "nonsense"))
            #expect(try await refused.read(until: "invalid_token", limit: .seconds(20)) != nil)
            await refused.closeWriting()
            let reply = try await refused.readUntilClosed(limit: .seconds(10))
            #expect(reply.closedByServer, "a connection whose only request was a refused stream")
        }
    }

    @Test("20 streams resumed from before 1,500 logged changes while 60 more are made: each gets every change once, in order, across the hand-over from the log to the feed")
    func catchUpMeetsTheFeed() async throws {
        let catalog = try Catalog(movies: SyntheticCatalog.movies(count: 2_000, seed: 9, years: 2010...2019))
        let storage = MemoryStorage(catalog: catalog)
        var feed = FeedSettings()
        feed.streamsPerPerson = 20
        feed.streamsPerAddress = 20
        try await withServerClient(auth: PersonSignIn.auth(), storage: storage, feed: feed) { client in
            let alice = try await PersonSignIn.tokens("alice", on: client)
            let watchlister = try await Watchlister(client, token: alice.access)
            let start = String(storage.eventLogBounds().latest)
            // A backlog of three pages for each stream to read while the feed hands on the changes after it.
            let backlog = 1_500
            #expect(try await FeedStreams.flood(watchlister, catalog: catalog, rounds: backlog / 500) { true } == backlog / 500)
            let changes = 60
            let writer = Task {
                for number in 0..<changes { try await FeedStreams.note(watchlister, movie: catalog.movies[number % 5].id, "change \(number)") }
            }
            let taps = try await withThrowingTaskGroup(of: EventStreamTap.self) { group in
                for _ in 0..<20 { group.addTask { try await FeedStreams.stream(client, token: alice.access, lastEventID: start) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            defer { taps.forEach { $0.close() } }
            #expect(taps.allSatisfy { $0.status == 200 })
            try await writer.value
            // A last change, after every other: what a stream shows before it is all it was sent of them.
            try await FeedStreams.note(watchlister, movie: catalog.movies[5].id, "last")
            for tap in taps {
                let events = try await tap.wait { $0.last.map { FeedStreams.json($0)["note"] as? String == "last" } ?? false }
                let changesSeen = events.filter { $0.type == "watchlist" }
                let ids = changesSeen.compactMap { Int64($0.lastEventID) }
                #expect(ids.count == backlog + changes + 1 && zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 }, "\(ids.count) ids")
                #expect(changesSeen.suffix(changes + 1).map { FeedStreams.json($0)["note"] as? String } == (0..<changes).map { "change \($0)" } + ["last"])
            }
        }
    }
}
