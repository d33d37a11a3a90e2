import Foundation
import GRDB
import MarqueeTestSupport
import MovieServer
import NetworkTestSupport
import ServerTestSupport
import Testing

/// Conditional requests through the app, against `marquee`'s server on loopback, with the bytes
/// the server sent counted on the wire by a relay in front of it.
@Suite("Revalidation through the app")
struct RevalidationTests {
    let store = TestFolders.temporary.appendingPathComponent("revalidation-\(UUID().uuidString)/movies.sqlite")

    /// The fetch times of the stored list and of each stored movie.
    func fetchTimes() throws -> (list: Double, movies: [Int: Double]) {
        let database = try DatabaseQueue(path: store.path)
        return try database.read { db in
            let list = try Double.fetchOne(db, sql: "SELECT fetchedAt FROM listSnapshot WHERE query = 'topGrossing/2016'") ?? 0
            let rows = try Row.fetchAll(db, sql: "SELECT id, fetchedAt FROM movie")
            return (list, Dictionary(uniqueKeysWithValues: rows.map { ($0["id"], $0["fetchedAt"]) }))
        }
    }

    @Test("a second cacheThenNetwork run gets a 304 and rewrites no movie; a server with another catalog gets a 200 and the new list")
    func revalidates() async throws {
        let marquee = MarqueeProcess()
        let relay = try await CountingRelay.start(to: try await closedLoopbackPort())
        let arguments = ["top-grossing", "--env", "http://127.0.0.1:\(relay.port)/api/", "--store", store.path, "--policy", "cacheThenNetwork"]
        let fullFetch = try await withMovieServer { server in
            relay.serverPort = server.port
            let first = try await marquee.run(arguments)
            #expect(first.status == 0, "\(first.standardError)")
            #expect(first.standardOutput.contains("(from the network, fetched just now)"))
            let fullFetch = relay.bytesFromServer
            let before = try fetchTimes()
            #expect(before.movies.count == 10)

            let second = try await marquee.run(arguments)
            #expect(second.status == 0, "\(second.standardError)")
            #expect(second.standardOutput.contains("revalidated by the network (304 Not Modified)"))
            #expect(second.standardOutput.contains("1  Finding Dory (2016)"))
            let revalidation = relay.bytesFromServer - fullFetch
            #expect(revalidation > 0 && revalidation * 5 < fullFetch, "the 304 cost \(revalidation) bytes against \(fullFetch) for the list")
            let after = try fetchTimes()
            #expect(after.list > before.list, "the list's age starts again")
            #expect(after.movies == before.movies, "no movie row is written again")
            return fullFetch
        }

        // The same address, now served with another catalog.
        let catalog = try Catalog(movies: Catalog.reference().movies.map { movie in
            var movie = movie
            if movie.id == 1 { movie.name = "Finding Dory, Remastered" }
            return movie
        })
        try await withMovieServer(catalog: catalog) { server in
            relay.serverPort = server.port
            let sent = relay.bytesFromServer
            let third = try await marquee.run(arguments)
            #expect(third.status == 0, "\(third.standardError)")
            #expect(third.standardOutput.contains("(from the network, fetched just now)"))
            #expect(third.standardOutput.contains("1  Finding Dory, Remastered (2016)"))
            #expect(relay.bytesFromServer - sent >= fullFetch, "a changed list comes whole")
        }
        await relay.stop()
    }
}
