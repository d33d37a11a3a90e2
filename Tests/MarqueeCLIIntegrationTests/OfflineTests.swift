import Foundation
import MarqueeTestSupport
import NetworkTestSupport
import RegexBuilder
import ServerTestSupport
import Testing

/// The store through the app: the original's three-run demonstration against a real server,
/// then the same store with the server stopped.
@Suite("Offline first through the app")
struct OfflineTests {
    @Test("cacheThenNetwork: 0 then 10 movies, then 10 and 10, then 10 and the connection error; --offline shows the stored list and its age")
    func threeRunDemonstration() async throws {
        let marquee = MarqueeProcess()
        let demo = ["--policy", "cacheThenNetwork", "--trace"]
        let address = try await withMovieServer { server in
            let address = try await AddressThatGoesAway.start(to: server.port)
            let api = address.baseURL.absoluteString
            let first = try await marquee.run(["top-grossing", "--env", api] + demo)
            #expect(first.status == 0, "\(first.standardError)")
            #expect(Self.traceLines(first) == ["Found 0 movies (callback #1)", "Found 10 movies (callback #2)"])

            let second = try await marquee.run(["top-grossing", "--env", api] + demo)
            #expect(Self.traceLines(second) == ["Found 10 movies (callback #1)", "Found 10 movies (callback #2)"])
            #expect(second.standardOutput.contains("(from the local store, revalidated by the network (304 Not Modified), fetched just now)"))

            let rated = try await marquee.run(["top-rated", "--env", api])
            #expect(rated.status == 0)
            return address
        }
        try await address.goAway()
        let port = address.port

        let third = try await marquee.run(["top-grossing", "--env", "http://127.0.0.1:\(port)/api/"] + demo)
        #expect(third.status == 0, "the stored list was shown")
        let lines = Self.traceLines(third)
        #expect(lines.first == "Found 10 movies (callback #1)")
        #expect(lines.last?.hasPrefix("ERROR: cannot connect to 127.0.0.1:\(port)") == true)
        #expect(third.standardOutput.contains("Finding Dory (2016)"))

        let offline = try await marquee.run(["top-rated", "--env", "http://127.0.0.1:\(port)/api/", "--offline"])
        #expect(offline.status == 0, "\(offline.standardError)")
        #expect(offline.standardOutput.contains(recentAge("(from the local store, fetched ", ")")))
        #expect(CommandOutput.rankedRows(offline.standardOutput).first?.contains("Zootopia (2016)") == true)

        let fallback = try await marquee.run(["top-rated", "--env", "http://127.0.0.1:\(port)/api/"])
        #expect(fallback.status == 0)
        #expect(fallback.standardOutput.contains(recentAge("(from the local store, fetched ", " — network unavailable: cannot connect to 127.0.0.1:\(port)")))

        let nothingStored = try await marquee.run(["top-rated", "--year", "2001", "--offline"])
        #expect(nothingStored.status != 0)
        #expect(nothingStored.errorLines == ["marquee: nothing is stored for the top rated movies of 2001 yet; run once with the network to fill the store"])
    }

    @Test("--json keeps standard output pure JSON, and says on standard error that the answer is stored")
    func jsonWithStoredAnswer() async throws {
        let marquee = MarqueeProcess()
        _ = try await marquee.run(["movie", "6"])
        let offline = try await marquee.run(["movie", "6", "--offline", "--json"])
        #expect(offline.status == 0)
        let answer = try JSONSerialization.jsonObject(with: Data(offline.standardOutput.utf8)) as? [String: Any]
        #expect(answer?["source"] as? String == "store")
        #expect((answer?["movie"] as? [String: Any])?["name"] as? String == "Deadpool")
        #expect(offline.errorLines.first?.hasPrefix("marquee: note: from the local store") == true)
    }

    @Test("cache stats and cache clear")
    func statsAndClear() async throws {
        let marquee = MarqueeProcess()
        let store = TestFolders.temporary.appendingPathComponent("cli-store-\(UUID().uuidString)/movies.sqlite").path
        _ = try await marquee.run(["top-grossing", "--store", store])
        let stats = try await marquee.run(["cache", "stats", "--store", store])
        #expect(stats.standardOutput.contains("Movies    10"))
        #expect(stats.standardOutput.contains(recentAge("topGrossing/2016: 10 movies, fetched ", "")))
        let clear = try await marquee.run(["cache", "clear", "--store", store])
        #expect(clear.standardOutput == "Removed the movie store \(store).\n")
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test("a damaged store, like an unwritable one, is one warning naming the file and 'marquee cache clear' while the network's answer is shown; offline it is an error; the file is kept until cleared")
    func damagedStore() async throws {
        let marquee = MarqueeProcess()
        let store = TestFolders.temporary.appendingPathComponent("damaged it's \(UUID().uuidString).sqlite")
        #expect(try await marquee.run(["top-rated", "--env", "stub:success", "--store", store.path]).status == 0)
        try damageDatabase(at: store)
        let garbage = try Data(contentsOf: store)
        let quotedPath = "'" + store.path.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
        let hint = "start over with: marquee cache clear --store \(quotedPath)"

        let online = try await marquee.run(["top-rated", "--store", store.path])
        #expect(online.status == 0, "\(online.standardError)")
        #expect(online.standardOutput.contains("Zootopia"), "the network's answer is shown")
        #expect(online.errorLines.count == 1)
        #expect(online.errorLines.first?.hasPrefix("marquee: warning: the movie store") == true)
        #expect(online.standardError.contains(hint), "the hint names the store that was used, quoted for the shell")

        let offline = try await marquee.run(["top-rated", "--store", store.path, "--offline"])
        #expect(offline.status == 1)
        #expect(offline.errorLines.count == 1)
        #expect(offline.standardError.hasSuffix(hint + "\n"))
        #expect(try Data(contentsOf: store) == garbage)

        _ = try await marquee.run(["cache", "clear", "--store", store.path])
        let recovered = try await marquee.run(["top-rated", "--store", store.path])
        #expect(recovered.status == 0)
    }

    static func traceLines(_ outcome: MarqueeProcess.Outcome) -> [String] {
        outcome.standardOutput.split(separator: "\n").map(String.init).filter { $0.hasPrefix("Found") || $0.hasPrefix("ERROR") }
    }
}

/// `prefix`, an age of a stored answer fetched earlier in the same test ("just now", or some
/// seconds ago on a loaded machine), then `suffix`: what a provenance line says, without
/// depending on how fast processes start.
func recentAge(_ prefix: String, _ suffix: String) -> Regex<Substring> {
    Regex {
        prefix
        ChoiceOf {
            "just now"
            Regex { OneOrMore(.digit); " seconds ago" }
        }
        suffix
    }
}
