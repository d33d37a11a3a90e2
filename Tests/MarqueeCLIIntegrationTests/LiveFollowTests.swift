import Foundation
import MarqueeTestSupport
import MovieContract
import MovieServer
import MovieStore
import Movies
import NetworkTestSupport
import ServerTestSupport
import Testing

/// `marquee watchlist --follow` against a real server: another device's changes arrive as lines,
/// and a stream cut at random moments a thousand times loses nothing and applies nothing twice.
@Suite("The live feed from the command line", .serialized, .timeLimit(.minutes(6)))
struct LiveFollowTests {

    static func object(_ line: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
    }

    @Test("--follow prints the list, then each change another device makes, one JSON object a line; --follow --offline is refused")
    func followPrintsChanges() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        let marquee = MarqueeProcess()
        try await withMovieServer(auth: LoginFlow.auth(), storage: storage) { server in
            let api = server.baseURL.absoluteString
            let login = try await LoginFlow.login(marquee, api: api, port: server.port, as: "alice")
            #expect(login.status == 0)
            _ = storage.applyWatchlist(FeedWrites.change("first", movie: 2, .add, at: 1_700_000_000_000, on: storage), now: Date())

            let follow = try marquee.launch(["watchlist", "--follow", "--json", "--env", api])
            let list = try #require(await follow.nextOutputLine(containing: "entries"))
            #expect((Self.object(list)["entries"] as? [[String: Any]])?.map { $0["movieId"] as? Int } == [2], "\(list)")
            #expect(await follow.nextErrorLine(containing: "marquee: live") != nil)

            _ = storage.applyWatchlist(FeedWrites.change("second", movie: 6, .add, at: 1_700_000_001_000, on: storage), now: Date())
            let added = try #require(await follow.nextOutputLine(containing: "\"movieId\":6"))
            #expect(Self.object(added)["event"] as? String == "changed")
            #expect(Self.object(added)["note"] as? String == "note second")
            #expect(Self.object(added)["removed"] as? Bool == false)
            _ = storage.applyWatchlist(FeedWrites.change("third", movie: 2, .remove, at: 1_700_000_002_000, on: storage), now: Date())
            let removed = try #require(await follow.nextOutputLine(containing: "\"removed\":true"))
            #expect(Self.object(removed)["movieId"] as? Int == 2)

            let status = await follow.signal(SIGINT)
            #expect(status == SIGINT, "ended by Ctrl-C: \(status)")
            let offline = try await marquee.run(["watchlist", "--follow", "--offline", "--env", api])
            #expect(offline.status == 64)
            #expect(offline.errorLines.first?.contains("--follow needs the network") == true, "\(offline.standardError)")
        }
    }

    @Test("--follow through tokens that lapse every 2 s: the server ends each stream at its token's lapse, the client renews and reopens, and every change arrives once")
    func followsAcrossTokenLapses() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        let marquee = MarqueeProcess()
        var auth = LoginFlow.auth()
        auth.accessTokenLifetime = .seconds(2)
        auth.clockSkewLeeway = 0
        try await withMovieServer(auth: auth, storage: storage) { server in
            let api = server.baseURL.absoluteString
            #expect(try await LoginFlow.login(marquee, api: api, port: server.port, as: "alice").status == 0)
            let follow = try marquee.launch(["watchlist", "--follow", "--json", "--env", api])
            #expect(await follow.nextOutputLine(containing: "entries") != nil)
            #expect(await follow.nextErrorLine(containing: "marquee: live") != nil)
            // Eight changes 3 s apart: a dozen renewals within a minute, more than the client's
            // guard against renewing in a loop allows for refused credentials.
            for (index, movie) in [2, 6, 7, 8, 9, 10, 3, 4].enumerated() {
                if index > 0 { try await Task.sleep(for: .seconds(3)) }
                _ = storage.applyWatchlist(FeedWrites.change("lapse\(index)", movie: movie, .add, at: 1_700_000_000_000 + Int64(index) * 1_000, on: storage), now: Date())
                let line = await follow.nextOutputLine(containing: "\"movieId\":\(movie)")
                #expect(line != nil, "the change made after \(index) lapses arrived: \(follow.lastOutput)")
            }
            #expect(await follow.signal(SIGINT) == SIGINT, "\(follow.lastOutput)")
        }
    }

    @Test("a stream cut 12 times at random moments while 300 changes are made: the store ends equal to the server's list, no change applied twice")
    func losslessResume() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        let marquee = MarqueeProcess()
        // The app waits at least a second before each reconnection, whatever the server's retry
        // (1 to 2 s, doubled after each break that read nothing): each cut comes past the answer's
        // head, in or after the first events, and a dozen take some 20 s. The thousand cuts
        // anywhere are made in process, with the floor lowered (ResumeInProcessTests).
        let cuts = 12
        try await withMovieServer(auth: LoginFlow.auth(), storage: storage) { server in
            let relay = try await ChoppingRelay.start(to: server.port, cuts: cuts, shortest: 300, longest: 700, seed: 1_000)
            defer { Task { await relay.stop() } }
            let api = "http://127.0.0.1:\(relay.port)/api/"
            #expect(try await LoginFlow.login(marquee, api: api, port: server.port, as: "alice").status == 0)
            let follow = try marquee.launch(["watchlist", "--follow", "--json", "--env", api])
            #expect(await follow.nextOutputLine(containing: "entries") != nil)

            let movies = try Catalog.reference().movies.map(\.id)
            var made = 0
            while relay.cutsMade < cuts || made < 300 {
                let movie = movies[made % movies.count]
                let action: WatchlistChangeRecord.Action = (made / movies.count).isMultiple(of: 2) ? .add : .remove
                _ = storage.applyWatchlist(FeedWrites.change("c\(made)", movie: movie, action, at: 1_700_000_000_000 + Int64(made) * 1_000, on: storage), now: Date())
                made += 1
                try await Task.sleep(for: .milliseconds(made < 300 ? 20 : 5))
                if made > 20_000 { break }
            }
            #expect(relay.cutsMade == cuts, "the relay cut \(relay.cutsMade) streams")
            let expected = Set(storage.watchlist(owner: storage.owner(ofAccount: "alice")).map(\.movieID))

            // The last change's line arrives once everything before it did.
            var lines: [String] = []
            let lastTime = WatchlistClock.string(1_700_000_000_000 + Int64(made - 1) * 1_000)
            while let line = await follow.nextOutputLine() {
                lines.append(line)
                if line.contains(lastTime) { break }
            }
            _ = await follow.signal(SIGINT)
            let changes = lines.map(Self.object).filter { $0["event"] as? String == "changed" }
            let times = changes.compactMap { $0["changedAt"] as? String }
            #expect(times.count == Set(times).count, "a change was applied twice: \(times.count) lines, \(Set(times).count) changes")
            #expect(times.last == lastTime, "the last change never arrived")

            let stored = try await marquee.run(["watchlist", "--json", "--offline", "--env", api])
            let entries = Self.object(stored.standardOutput)["entries"] as? [[String: Any]] ?? []
            #expect(Set(entries.compactMap { $0["movieId"] as? Int }) == expected, "\(stored.standardOutput)")
        }
    }
}
