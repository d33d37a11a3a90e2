import Foundation
import GRDB
import MarqueeTestSupport
import MovieServer
import MovieStore
import ServerTestSupport
import Testing

/// The store's budget as a user meets it: `movies --all` past it against a real server, what
/// `cache stats` says, the variable and the config file, offline answers after eviction, and a
/// list `browse` shows while another process walks.
@Suite("Store budget from the command line", .serialized, .timeLimit(.minutes(4)))
struct StoreBudgetCommandTests {
    static let catalog: Catalog = {
        do { return try Catalog(movies: SyntheticCatalog.movies(count: 6_000, seed: 5, years: 2010...2019)) } catch { preconditionFailure("\(error)") }
    }()
    static let budget: Int64 = 1_000_000
    /// What the file may pass the budget by: the page written before eviction runs after it.
    static let margin: Int64 = 256 * 1024

    let folder = TestFolders.temporary.appendingPathComponent("budget-cli-\(UUID().uuidString)")
    var store: URL { folder.appendingPathComponent("movies.sqlite") }

    /// The movies in the store and its pages, read by SQLite itself.
    func fileContents() async throws -> (movies: Int, bytes: Int64) {
        let queue = try DatabaseQueue(path: store.path)
        defer { try? queue.close() }
        return try await queue.read { db in
            let movies = try Int.fetchOne(db, sql: "SELECT count(*) FROM movie") ?? -1
            let bytes = (try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0) * (try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 0)
            return (movies, bytes)
        }
    }

    @Test("movies --all over six times the budget: the file stays within it, cache stats agrees, evicted movies are simply not stored offline")
    func walkPastTheBudget() async throws {
        let marquee = MarqueeProcess()
        try await withMovieServer(catalog: Self.catalog) { server in
            let client = ["--env", server.baseURL.absoluteString, "--store", store.path]
            let budget = ["MARQUEE_STORE_BUDGET": "1MB"]
            let walk = try await marquee.run(["movies", "--sort", "released", "--order", "asc", "--limit", "100", "--all"] + client, environment: budget)
            #expect(walk.status == 0, "\(walk.standardError)")

            let stats = try await marquee.run(["cache", "stats", "--store", store.path], environment: budget)
            let contents = try await fileContents()
            #expect(contents.bytes <= Self.budget + Self.margin, "the file holds \(contents.bytes) bytes")
            #expect(contents.movies > 300 && contents.movies < 6_000, "\(contents.movies) movies kept")
            #expect(stats.standardOutput.contains("Movies    \(contents.movies) in all APIs"), "\(stats.standardOutput)")
            #expect(stats.standardOutput.contains("Budget    1 MB (1,000,000 bytes), "), "\(stats.standardOutput)")
            #expect(stats.standardOutput.contains("used (MARQUEE_STORE_BUDGET)"), "\(stats.standardOutput)")

            // Released first, evicted first; the last page walked is kept.
            let ordered = Self.catalog.movies.sorted { ($0.releaseDate, $0.id) < ($1.releaseDate, $1.id) }
            let evicted = try await marquee.run(["movie", "\(ordered[0].id)", "--offline"] + client, environment: budget)
            #expect(evicted.status == 1)
            #expect(evicted.errorLines == ["marquee: nothing is stored for movie \(ordered[0].id) yet; run once with the network to fill the store"], "\(evicted.standardError)")
            let kept = try await marquee.run(["movie", "\(ordered[ordered.count - 1].id)", "--offline"] + client, environment: budget)
            #expect(kept.status == 0, "\(kept.standardError)")

            // The oldest year still stored was evicted in part: its list is derived from what is left.
            let queue = try DatabaseQueue(path: store.path)
            let (year, stored) = try await queue.read { db in
                let year = try Int.fetchOne(db, sql: "SELECT min(year) FROM movie") ?? 0
                return (year, try Int.fetchOne(db, sql: "SELECT count(*) FROM movie WHERE year = ?", arguments: [year]) ?? 0)
            }
            try queue.close()
            let derived = try await marquee.run(["top-grossing", "--year", "\(year)", "--offline", "--json"] + client, environment: budget)
            #expect(derived.status == 0, "\(derived.standardError)")
            let json = try JSONSerialization.jsonObject(with: Data(derived.standardOutput.utf8)) as? [String: Any]
            #expect(json?["source"] as? String == "derived")
            #expect(json?["derivedFrom"] as? Int == stored, "\(derived.standardOutput)")
            #expect(stored < Self.catalog.movies.filter { $0.year == year }.count, "\(stored) movies of \(year) kept")
        }
    }

    @Test("the budget from the config file, MARQUEE_STORE_BUDGET over it, and one clear line for a budget that is not one")
    func chosenBudget() async throws {
        var marquee = MarqueeProcess()
        let config = URL(fileURLWithPath: try #require(marquee.environment["XDG_CONFIG_HOME"])).appendingPathComponent("marquee/config")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "store-budget = 2GiB\n".write(to: config, atomically: true, encoding: .utf8)
        _ = try await marquee.run(["top-grossing", "--env", "stub:success", "--store", store.path])

        let fromFile = try await marquee.run(["cache", "stats", "--store", store.path])
        #expect(fromFile.standardOutput.contains("Budget    2 GiB (2,147,483,648 bytes), under 1% used (\(config.path))"), "\(fromFile.standardOutput)")
        let fromVariable = try await marquee.run(["cache", "stats", "--store", store.path], environment: ["MARQUEE_STORE_BUDGET": "unlimited"])
        #expect(fromVariable.standardOutput.contains("Budget    unlimited (MARQUEE_STORE_BUDGET): nothing is evicted"), "\(fromVariable.standardOutput)")

        marquee.environment["MARQUEE_STORE_BUDGET"] = "10 parsecs"
        let refused = try await marquee.run(["top-grossing", "--env", "stub:success", "--store", store.path])
        #expect(refused.status == 1)
        #expect(refused.standardOutput.isEmpty)
        #expect(refused.errorLines == ["marquee: MARQUEE_STORE_BUDGET: '10 parsecs' is not a store budget: 'parsecs' is not a unit; write a number of bytes, or one with a unit (500MB, 1GiB, 2G), or 'unlimited'"], "\(refused.standardError)")
        marquee.environment["MARQUEE_STORE_BUDGET"] = nil
        try "store-budget = 10kB\n".write(to: config, atomically: true, encoding: .utf8)
        let small = try await marquee.run(["cache", "stats", "--store", store.path])
        #expect(small.status == 1)
        #expect(small.errorLines == ["marquee: store-budget in \(config.path): '10kB' is too small a store budget: the least is 1 MB, which its tables alone nearly fill"], "\(small.standardError)")
    }

    @Test("the list browse shows is kept while another process walks past the budget; once browse quits, the next walk evicts it")
    func browseKeepsWhatItShows() async throws {
        var marquee = MarqueeProcess()
        marquee.environment["NO_COLOR"] = "1"
        marquee.environment["MARQUEE_STORE_BUDGET"] = "1MB"
        let browsing = BrowseTerminalTests()
        try await withMovieServer(catalog: Self.catalog) { server in
            let client = ["--env", server.baseURL.absoluteString, "--store", browsing.store.path]
            let terminal = try await TmuxTerminal.start(command: try browsing.browseScript(["--year", "2012"] + client), environment: marquee.environment, width: 120, height: 30)
            defer { terminal.kill() }
            let shown = try await terminal.waitForScreen("the network's answer") { $0.contains { $0.hasPrefix("from the network, ") } }
            let listed = try await marquee.run(["top-grossing", "--year", "2012", "--offline", "--json"] + client)
            let before = try Self.names(listed.standardOutput)
            let first = try #require(before.first, "\(listed.standardOutput)")
            #expect(shown[2].contains("1  \(first) (2012)"), "\(shown)")

            let walk = try await marquee.run(["movies", "--limit", "100", "--all"] + client)
            #expect(walk.status == 0, "\(walk.standardError)")
            let during = try await marquee.run(["top-grossing", "--year", "2012", "--offline", "--json"] + client)
            #expect(during.status == 0, "\(during.standardError)")
            #expect(try Self.names(during.standardOutput) == before, "the list on screen was evicted or torn")
            #expect(try Self.source(during.standardOutput) == "store")

            try await terminal.send("q")
            try await browsing.expectRestored(terminal, status: 0)
            let again = try await marquee.run(["movies", "--limit", "100", "--all"] + client)
            #expect(again.status == 0, "\(again.standardError)")
            let after = try await marquee.run(["top-grossing", "--year", "2012", "--offline", "--json"] + client)
            #expect(try Self.source(after.standardOutput) != "store", "with browse gone, the list is evicted like any other: \(after.standardOutput)")
        }
    }

    static func names(_ json: String) throws -> [String] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return (object?["movies"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }

    static func source(_ json: String) throws -> String? {
        (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["source"] as? String
    }
}
