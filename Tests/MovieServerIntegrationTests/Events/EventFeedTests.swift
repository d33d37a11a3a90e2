import Foundation
import MarqueeTestSupport
@testable import MovieServer
import NetworkTestSupport
import Networking
import ServerTestSupport
import Testing

/// `GET /api/events` over real sockets: who receives what, the cursor and its resume, `reset`,
/// the limits, and a graceful shutdown.
@Suite("The event feed", .timeLimit(.minutes(3)))
struct EventFeedTests {

    @Test("a person receives their own watchlist's changes and the catalogue's, not another person's; an application's token, the catalogue's")
    func whoReceivesWhat() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        try await withServerClient(auth: PersonSignIn.auth(), storage: storage) { client in
            let alice = try await PersonSignIn.tokens("alice", on: client)
            let bob = try await PersonSignIn.tokens("bob", on: client)
            let aliceStream = try await FeedStreams.stream(client, token: alice.access)
            let bobStream = try await FeedStreams.stream(client, token: bob.access)
            let appStream = try await FeedStreams.stream(client, token: try await FeedStreams.appToken(client))
            defer { [aliceStream, bobStream, appStream].forEach { $0.close() } }
            #expect(aliceStream.status == 200)
            #expect(aliceStream.headers.contains { $0.0.lowercased() == "content-type" && $0.1.hasPrefix("text/event-stream") })
            #expect(aliceStream.headers.contains { $0.0.lowercased() == "x-accel-buffering" && $0.1 == "no" })
            for tap in [aliceStream, bobStream, appStream] {
                let opened = try await tap.wait { !$0.isEmpty }
                #expect(opened.first?.type == "ready", "\(opened)")
            }

            try await FeedStreams.note(try await Watchlister(client, token: alice.access), movie: 6, "Friday")
            try await FeedStreams.note(try await Watchlister(client, token: bob.access), movie: 3, "bob's")
            storage.feed.append([NewFeedEvent.catalog(version: 7)], now: Date())
            client.server.server.feed.poke()

            let aliceEvents = try await aliceStream.wait { $0.contains { $0.type == "catalog" } }
            #expect(aliceEvents.map(\.type) == ["ready", "watchlist", "catalog"], "\(aliceEvents)")
            let change = FeedStreams.json(aliceEvents[1])
            #expect(change["movieId"] as? Int == 6)
            #expect(change["note"] as? String == "Friday")
            #expect(change["removed"] as? Bool == false)
            let bobEvents = try await bobStream.wait { $0.contains { $0.type == "catalog" } }
            #expect(bobEvents.map(\.type) == ["ready", "watchlist", "catalog"])
            #expect(FeedStreams.json(bobEvents[1])["movieId"] as? Int == 3)
            let appEvents = try await appStream.wait { $0.contains { $0.type == "catalog" } }
            #expect(appEvents.map(\.type) == ["ready", "catalog"], "\(appEvents)")
            #expect(FeedStreams.json(appEvents[1])["version"] as? Int == 7)
            // Every id is a sequence of the one log, growing.
            let ids = aliceEvents.compactMap { Int64($0.lastEventID) }
            #expect(ids.count == 3 && ids == ids.sorted() && Set(ids).count == 3, "\(ids)")
        }
    }

    @Test("Last-Event-ID resumes after the cursor, none twice; a cursor older than the log, or not one of it, gets one reset")
    func resumeAndReset() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        try await withServerClient(auth: PersonSignIn.auth(), storage: storage) { client in
            let alice = try await PersonSignIn.tokens("alice", on: client)
            let watchlister = try await Watchlister(client, token: alice.access)
            let first = try await FeedStreams.stream(client, token: alice.access)
            try await FeedStreams.note(watchlister, movie: 1, "one")
            try await FeedStreams.note(watchlister, movie: 2, "two")
            let seen = try await first.wait { $0.filter { $0.type == "watchlist" }.count == 2 }
            first.close()
            let cursor = try #require(seen.last?.lastEventID)

            try await FeedStreams.note(watchlister, movie: 3, "three")
            try await FeedStreams.note(watchlister, movie: 4, "four")
            let resumed = try await FeedStreams.stream(client, token: alice.access, lastEventID: cursor)
            defer { resumed.close() }
            let after = try await resumed.wait { $0.filter { $0.type == "watchlist" }.count >= 2 }
            #expect(after.first?.type == "ready" && after.first?.lastEventID == cursor)
            #expect(FeedStreams.json(after[0])["resumed"] as? Bool == true)
            #expect(after.filter { $0.type == "watchlist" }.map { FeedStreams.json($0)["movieId"] as? Int } == [3, 4], "\(after)")
            try await Task.sleep(for: .milliseconds(300))
            #expect(resumed.events.filter { $0.type == "watchlist" }.count == 2, "nothing is sent twice: \(resumed.events)")

            for stale in ["not-a-cursor", "999999"] {
                let reset = try await FeedStreams.stream(client, token: alice.access, lastEventID: stale)
                let events = try await reset.wait { !$0.isEmpty }
                reset.close()
                #expect(events.map(\.type) == ["reset"], "\(stale): \(events)")
                #expect(events.first?.lastEventID == after.last?.lastEventID)
            }
            storage.pruneEvents(writtenBefore: Date().addingTimeInterval(60))
            let pruned = try await FeedStreams.stream(client, token: alice.access, lastEventID: cursor)
            let events = try await pruned.wait { !$0.isEmpty }
            pruned.close()
            #expect(events.map(\.type) == ["reset"], "a cursor before what is kept: \(events)")
            #expect(FeedStreams.json(events[0])["reason"] as? String != nil)
        }
    }

    @Test("a person may hold 4 streams; the fifth is a 429 with Retry-After; a token that is not one is a 401")
    func limits() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { client in
            let alice = try await PersonSignIn.tokens("alice", on: client)
            var open: [EventStreamTap] = []
            defer { open.forEach { $0.close() } }
            for _ in 0..<4 {
                let tap = try await FeedStreams.stream(client, token: alice.access)
                #expect(tap.status == 200)
                open.append(tap)
            }
            let refused = try await client.get("/api/events", headers: [("Authorization", "Bearer \(alice.access)")])
            #expect(refused.status == 429)
            #expect(refused.json?["error"] as? String == "too_many_streams")
            #expect(refused.headers.contains(name: "Retry-After"))
            open.removeLast().close()
            #expect(try await eventually(limit: .seconds(10)) { client.server.server.openEventStreams == 3 })
            let again = try await FeedStreams.stream(client, token: alice.access)
            #expect(again.status == 200)
            again.close()

            #expect(try await client.get("/api/events").status == 401)
            #expect(try await client.get("/api/events", headers: [("Authorization", "Bearer nonsense")]).status == 401)
        }
    }

    @Test("an idle stream gets a comment at each heartbeat; at the first heartbeat after a person's sign-in is revoked their stream ends, an application's goes on")
    func heartbeatsAndEndedSignIn() async throws {
        var feed = FeedSettings()
        feed.heartbeat = .milliseconds(300)
        try await withServerClient(auth: PersonSignIn.auth(), feed: feed) { client in
            let (access, refresh) = try await PersonSignIn.tokens("alice", on: client)
            let person = try await RawConnection.open(port: client.server.port, sending: "GET /api/events HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(access)\r\n\r\n")
            let app = try await RawConnection.open(port: client.server.port, sending: "GET /api/events HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(try await FeedStreams.appToken(client))\r\n\r\n")
            let idle = try #require(try await app.read(until: "\n:\n\n", limit: .seconds(10)), "no heartbeat comment on an idle stream")
            #expect(!idle.contains("event: watchlist") && !idle.contains("event: catalog"))
            #expect(try await person.read(until: "\n:\n\n", limit: .seconds(10)) != nil)

            let revoked = try await client.get(
                "/api/auth/revoke", method: .POST, headers: TokenForms.form,
                body: "token=\(refresh)&token_type_hint=refresh_token&client_id=marquee-dev&client_secret=marquee-dev-secret"
            )
            #expect(revoked.status == 200)
            #expect(try await eventually(limit: .seconds(10)) { client.server.server.openEventStreams == 1 }, "the person's stream ended; the application's is the one left")
            let ended = try await person.readUntilClosed(limit: .seconds(10))
            #expect(ended.closedByServer, "the server closed the person's stream")
            await person.close()
            await app.close()
        }
    }

    @Test("on one instance too, a sign-out ends that device's stream at once, long before a heartbeat, and the other device's goes on")
    func signOutEndsStreamAtOnce() async throws {
        var feed = FeedSettings()
        feed.heartbeat = .seconds(600)
        try await withServerClient(auth: PersonSignIn.auth(), feed: feed) { client in
            try await SignOutReach.check(signingOutOn: client, streamingOn: client)
        }
    }

    @Test("a reader that does not read is disconnected once its queue is full, and its place is given back")
    func slowReaderIsDisconnected() async throws {
        let catalog = try Catalog(movies: SyntheticCatalog.movies(count: 2_000, seed: 3, years: 2010...2019))
        var feed = FeedSettings()
        feed.queueCapacity = 8
        try await withServerClient(catalog: catalog, auth: PersonSignIn.auth(), feed: feed) { client in
            let alice = try await PersonSignIn.tokens("alice", on: client)
            let stalled = try StalledReader(port: client.server.port, path: "/api/events", token: alice.access)
            defer { stalled.close() }
            #expect(try await eventually(limit: .seconds(10)) { client.server.server.openEventStreams == 1 })
            let watchlister = try await Watchlister(client, token: alice.access)
            // More than the kernel's socket buffers take (up to some 4 MB sent, unread).
            let batches = try await FeedStreams.flood(watchlister, catalog: catalog, rounds: 24) { client.server.server.openEventStreams == 1 }
            #expect(try await eventually(limit: .seconds(20)) { client.server.server.openEventStreams == 0 })
            #expect(batches >= 1)
        }
    }

    @Test("a graceful shutdown ends open streams with their cursor: the last id read is the last event's")
    func shutdownEndsStreams() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        var configuration = MovieServer.Configuration(host: "127.0.0.1", port: 0, storage: storage, auth: PersonSignIn.auth(), logger: quietLogger)
        configuration.shutdownTimeout = .seconds(90)
        let server = await MovieServer(configuration: configuration)
        let running = try await server.start()
        let client = ServerClient(server: TestMovieServer(server: server, running: running))
        let alice = try await PersonSignIn.tokens("alice", on: client)
        let tap = try await FeedStreams.stream(client, token: alice.access)
        defer { tap.close() }
        try await FeedStreams.note(try await Watchlister(client, token: alice.access), movie: 5, "before")
        let events = try await tap.wait { $0.contains { $0.type == "watchlist" } }
        let began = ContinuousClock.now
        try await running.stop()
        #expect(server.openStreamConnections == 0, "the server stopped before the stream it ended had closed")
        #expect(ContinuousClock.now - began < .seconds(60), "the stream held the shutdown until its timeout")
        #expect(try await tap.waitForEnd(limit: .seconds(5)))
        #expect(tap.events.last?.lastEventID == events.last?.lastEventID)
        #expect(storage.eventLogBounds().latest == Int64(events.last?.lastEventID ?? "") ?? -1)
    }

    @Test("HEAD answers the stream's head and keeps no place")
    func headKeepsNoPlace() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { client in
            let token = try await FeedStreams.appToken(client)
            for _ in 0..<3 {
                let answer = try await client.get("/api/events", method: .HEAD, headers: [("Authorization", "Bearer \(token)")])
                #expect(answer.status == 200)
            }
            #expect(client.server.server.openEventStreams == 0)
        }
    }

    @Test("the stream's path is matched after percent-decoding, as the router matches every other path")
    func percentEncodedPath() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { client in
            let token = try await FeedStreams.appToken(client)
            for path in ["/api/%65vents", "/api/event%73?x=1", "/%61pi/events/"] {
                let answer = try await client.get(path, method: .HEAD, headers: [("Authorization", "Bearer \(token)")])
                #expect(answer.status == 200, "\(path)")
                #expect(answer.headers.first(name: "content-type")?.hasPrefix("text/event-stream") == true, "\(path)")
            }
            #expect(try await client.get("/api/%65vent", method: .HEAD, headers: [("Authorization", "Bearer \(token)")]).status == 404)
        }
    }
}

/// The instance's stream cap is kept below its connection cap, whatever the feed settings say.
@Suite("The event streams' cap")
struct EventStreamCapTests {
    @Test("with --max-connections 4, at most 3 streams are held (three quarters); the fourth is a 503 with Retry-After")
    func capBelowConnections() async throws {
        try await withMovieServer(auth: PersonSignIn.auth(), limits: ConnectionLimits(maximumConnections: 4)) { server in
            let client = ServerClient(server: server)
            let token = try await PersonSignIn.tokens("alice", on: client).access
            var open: [EventStreamTap] = []
            defer { open.forEach { $0.close() } }
            for _ in 0..<3 {
                let tap = try await FeedStreams.stream(client, token: token)
                #expect(tap.status == 200)
                open.append(tap)
            }
            let refused = try await FeedStreams.stream(client, token: token)
            defer { refused.close() }
            #expect(refused.status == 503)
            #expect(refused.headers.contains { $0.0.lowercased() == "retry-after" })
        }
    }
}
