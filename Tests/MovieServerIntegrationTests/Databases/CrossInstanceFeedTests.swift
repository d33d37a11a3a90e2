import Foundation
import MarqueeTestSupport
import MovieServer
import MovieServerDatabases
import Networking
import ServerTestSupport
import Testing

extension ServerDatabaseTests {
    /// The feed across instances on one database: a change written through A reaches a stream
    /// on B (PostgreSQL's NOTIFY; SQLite's poll), and so does a catalogue import by another process.
    @Suite("The event feed across instances")
    struct CrossInstanceFeedTests {
        @Test("a watchlist change made through A, and an import by a third process, reach alice's stream on B in order", arguments: Backend.databases)
        func changeOnAReachesB(backend: Backend) async throws {
            let location = try await backend.makeLocation()
            let first = try await location.open(logger: quietLogger)
            let second: any CatalogImporting, importer: any CatalogImporting
            do {
                _ = try await first.importMovies(try Catalog.reference().movies, batchSize: 100) { _ in }
                second = try await location.open(logger: quietLogger)
                importer = try await location.open(logger: quietLogger)
            } catch {
                await first.close()
                throw error
            }
            try await finally(
                try await withServerClient(auth: PersonSignIn.auth(), storage: first) { a in
                    try await withServerClient(auth: PersonSignIn.auth(), storage: second) { b in
                        let onA = try await PersonSignIn.tokens("alice", on: a)
                        let onB = try await PersonSignIn.tokens("alice", signUp: false, on: b)
                        let stream = try await FeedStreams.stream(b, token: onB.access)
                        defer { stream.close() }
                        _ = try await stream.wait { !$0.isEmpty }
                        let began = ContinuousClock.now
                        try await FeedStreams.note(try await Watchlister(a, token: onA.access), movie: 7, "seen on B")
                        let events = try await stream.wait { $0.contains { $0.type == "watchlist" } }
                        let change = try #require(events.first { $0.type == "watchlist" })
                        #expect(FeedStreams.json(change)["note"] as? String == "seen on B")
                        // Delivered across instances while the test waits, with room for a full
                        // suite on 2 cores (5.6 s seen once against a 5 s bound).
                        #expect(ContinuousClock.now - began < .seconds(10))

                        var movies = try Catalog.reference().movies
                        movies[0].name += " (restored)"
                        _ = try await importer.importMovies(movies, batchSize: 100) { _ in }
                        let all = try await stream.wait { $0.contains { $0.type == "catalog" } }
                        #expect(all.map(\.type) == ["ready", "watchlist", "catalog"], "\(all)")
                        let ids = all.compactMap { Int64($0.lastEventID) }
                        #expect(ids == ids.sorted() && Set(ids).count == ids.count)
                    }
                }
            ) {
                await importer.close()
                await second.close()
                await first.close()
            }
        }
    

        @Test("a device signed out through A has its stream on B ended at once, not at a heartbeat; the person's other device's stream on B goes on and is sent nothing of it", arguments: Backend.databases)
        func signOutOnAEndsStreamOnB(backend: Backend) async throws {
            let location = try await backend.makeLocation()
            let first = try await location.open(logger: quietLogger)
            let second: any CatalogImporting
            do {
                _ = try await first.importMovies(try Catalog.reference().movies, batchSize: 100) { _ in }
                second = try await location.open(logger: quietLogger)
            } catch {
                await first.close()
                throw error
            }
            var feed = FeedSettings()
            feed.heartbeat = .seconds(600)
            try await finally(
                try await withServerClient(auth: PersonSignIn.auth(), storage: first, feed: feed) { a in
                    try await withServerClient(auth: PersonSignIn.auth(), storage: second, feed: feed) { b in
                        try await SignOutReach.check(signingOutOn: a, streamingOn: b)
                    }
                }
            ) {
                await second.close()
                await first.close()
            }
        }
    }
}
