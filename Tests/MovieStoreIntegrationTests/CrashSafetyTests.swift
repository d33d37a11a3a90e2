import Foundation
import MarqueeTestSupport
import Movies
import MovieStore
import Testing

/// A writer process is killed with SIGKILL at random moments while it replaces large lists.
/// After every kill the file passes SQLite's integrity check, and each list is one whole
/// generation: the old answer or the new one, never a mix, and never an older one than before.
@Suite("Crash safety", .timeLimit(.minutes(10)))
struct CrashSafetyTests {
    static let kills = 50
    static let batchSize = 2_000

    @Test("SIGKILL during large writes leaves every list whole")
    func survivesKills() async throws {
        let url = TestFolders.temporary.appendingPathComponent("crash-\(UUID().uuidString)/movies.sqlite")
        let writer = BuildProducts.executable(named: "marquee-store-crash-writer")
        let seed = ProcessInfo.processInfo.environment["MARQUEE_CRASH_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
        var generator = SeededGenerator(seed: seed)
        print("crash safety: kill times drawn from seed \(seed) (set MARQUEE_CRASH_SEED to replay)")
        var lastSeen = [ListQuery: Int]()

        for round in 1...Self.kills {
            let child = try ChildProcess(executable: writer, arguments: [url.path, String(Self.batchSize)])
            let committed = await child.nextOutputLine(containing: "committed")
            #expect(committed != nil, "round \(round): the writer never committed")
            try await Task.sleep(for: .milliseconds(Int.random(in: 0..<40, using: &generator)))
            _ = await child.signal(SIGKILL)
            #expect(child.termination?.reason == .uncaughtSignal)

            let store = try MovieStore(url: url)
            #expect(try await store.checkIntegrity().isEmpty, "round \(round)")
            for query in [ListQuery(.topGrossing, year: 2016), ListQuery(.topRated, year: 2016)] {
                let movies = try #require(try await store.list(query, api: "test")?.value, "round \(round): \(query) is missing")
                #expect(movies.count == Self.batchSize, "round \(round): \(query) is not whole")
                let generations = Set(movies.map { $0.name.split(separator: " ").last.map(String.init) ?? "" })
                #expect(generations.count == 1, "round \(round): \(query) mixes generations \(generations.sorted())")
                let generation = Int(generations.first ?? "") ?? 0
                #expect(generation >= lastSeen[query, default: 0], "round \(round): \(query) went back in time")
                lastSeen[query] = generation
            }
        }
    }

    @Test("SIGKILL during eviction: every kept list is whole, the pending change survives, the file stays within the budget")
    func survivesKillsDuringEviction() async throws {
        let url = TestFolders.temporary.appendingPathComponent("crash-budget-\(UUID().uuidString)/movies.sqlite")
        let writer = BuildProducts.executable(named: "marquee-store-crash-writer")
        let budget: Int64 = 1_500_000, batch = 150
        let seed = ProcessInfo.processInfo.environment["MARQUEE_CRASH_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
        var generator = SeededGenerator(seed: seed)
        print("crash safety during eviction: kill times drawn from seed \(seed) (set MARQUEE_CRASH_SEED to replay)")

        var evictedLists = false
        for round in 1...30 {
            let child = try ChildProcess(executable: writer, arguments: [url.path, String(batch), String(budget)])
            for _ in 0..<(round == 1 ? 12 : 1) {
                #expect(await child.nextOutputLine(containing: "committed") != nil, "round \(round): the writer never committed")
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 0..<40, using: &generator)))
            _ = await child.signal(SIGKILL)
            #expect(child.termination?.reason == .uncaughtSignal)

            let store = try MovieStore(url: url)
            #expect(try await store.checkIntegrity().isEmpty, "round \(round)")
            let statistics = try await store.statistics()
            #expect(statistics.databaseBytes <= budget + 512 * 1024, "round \(round): \(statistics.databaseBytes) bytes")
            let lists = statistics.apis.flatMap(\.lists)
            evictedLists = evictedLists || lists.count < round + 11
            for list in lists {
                #expect(list.count == batch, "round \(round): \(list.key) holds \(list.count) of \(batch) movies")
            }
            for key in lists.map(\.key) {
                let year = try #require(Int(key.split(separator: "/").last ?? ""))
                let movies = try #require(try await store.list(ListQuery(.topGrossing, year: year), api: "test")?.value)
                let generations = Set(movies.map { $0.name.split(separator: " ").last.map(String.init) ?? "" })
                #expect(movies.count == batch && generations.count == 1, "round \(round): \(key) is torn")
            }
            #expect(try await store.pendingWatchlistChangeCount(api: "test") == 1, "round \(round): the pending change was lost")
            #expect(try await store.movie(id: 1, api: "test") != nil, "round \(round): the pending change's movie was evicted")
        }
        #expect(evictedLists, "the writer never went past the budget")
    }
}
