import Foundation
import GRDB
import MarqueeTestSupport
import NetworkTestSupport
import ServerTestSupport
import Testing

/// The original app's offline step: only the top grossing list was fetched, the network goes
/// away, and the user asks for the top rated. The answer is derived from the stored movies and
/// says so; it never becomes a stored snapshot, and a real snapshot always wins.
@Suite("Derived offline lists")
struct DerivedListTests {
    @Test("after top grossing only, with marquee serve stopped: top rated is the ten stored movies by rating, labelled derived")
    func derivesTheNeverFetchedList() async throws {
        let marquee = MarqueeProcess()
        let store = TestFolders.temporary.appendingPathComponent("derived-\(UUID().uuidString)/movies.sqlite")
        let server = try marquee.launch(["serve", "--port", "0"])
        let line = try #require(await server.nextErrorLine(containing: "Marquee movie API listening on"))
        let address = try await AddressThatGoesAway.start(to: try #require(line.split(separator: " ").last.map(String.init)))
        let api = address.baseURL.absoluteString
        let fetched = try await marquee.run(["top-grossing", "--year", "2016", "--env", api, "--store", store.path])
        #expect(fetched.status == 0, "\(fetched.standardError)")
        #expect(await server.signal() == 0)
        try await address.goAway()

        let offline = try await marquee.run(["top-rated", "--year", "2016", "--env", api, "--store", store.path, "--trace"])
        #expect(offline.status == 0, "\(offline.standardError)")
        #expect(offline.standardOutput.hasPrefix("Found 10 movies (callback #1)\n"))
        #expect(offline.standardOutput.contains(recentAge("(derived from 10 stored movies of 2016, fetched ", " — not the server's list; network unavailable: cannot connect to 127.0.0.1")))
        let rows = CommandOutput.rankedRows(offline.standardOutput)
        #expect(rows.count == 10)
        #expect(rows.first?.contains("Zootopia (2016)") == true, "rating descending, as the server orders it")

        let json = try await marquee.run(["top-rated", "--year", "2016", "--env", api, "--store", store.path, "--json"])
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(answer["source"] as? String == "derived")
        #expect(answer["derivedFrom"] as? Int == 10)
        #expect((answer["networkError"] as? String)?.hasPrefix("cannot connect to 127.0.0.1") == true)

        let snapshots = try await DatabaseQueue(path: store.path).read { db in
            try String.fetchAll(db, sql: "SELECT query FROM listSnapshot ORDER BY query")
        }
        #expect(snapshots == ["topGrossing/2016"], "the derived list was not stored")

        let emptyYear = try await marquee.run(["top-rated", "--year", "2001", "--env", api, "--store", store.path])
        #expect(emptyYear.status != 0)
        #expect(emptyYear.errorLines.first?.hasPrefix("marquee: cannot connect to 127.0.0.1") == true)
    }

    @Test("with a top rated snapshot stored, the snapshot is shown, not a derived list")
    func snapshotWins() async throws {
        let marquee = MarqueeProcess()
        let store = TestFolders.temporary.appendingPathComponent("derived-\(UUID().uuidString)/movies.sqlite").path
        let address = try await withMovieServer { server in
            let address = try await AddressThatGoesAway.start(to: server.port)
            let api = address.baseURL.absoluteString
            let grossing = try await marquee.run(["top-grossing", "--env", api, "--store", store])
            let rated = try await marquee.run(["top-rated", "--env", api, "--store", store])
            #expect(grossing.status == 0 && rated.status == 0)
            return address
        }
        try await address.goAway()
        let offline = try await marquee.run(["top-rated", "--env", address.baseURL.absoluteString, "--store", store, "--offline"])
        #expect(offline.status == 0)
        #expect(offline.standardOutput.contains("(from the local store, fetched"))
        #expect(!offline.standardOutput.contains("derived"))
    }
}
