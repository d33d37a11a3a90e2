import Foundation
import MovieContract
import GRDB
import MarqueeTestSupport
import Movies
@testable import MovieStore
import Testing

/// The store within its budget: what goes (least recently used first, lists whole), what never
/// goes (watchlists, pending changes, what a running screen shows), and the file's size.
@Suite("Store budget: eviction")
struct StoreBudgetTests {
    static let budget = StoreBudget(bytes: 2_200_000)
    /// What the file may pass the budget by: the last write, made before eviction runs after it.
    static let margin: Int64 = 256 * 1024
    static let api = Fixtures.api

    /// A movie whose cast names actors of its own (so actors go with their movies) and one shared.
    static func movie(_ id: Int, year: Int = 2016) -> Movie {
        Fixtures.movie(id, year: year, name: "Walk movie \(id) of a long enough title", cast: ["Actor \(id) A", "Actor \(id) B", "Everybody"])
    }

    /// Fetches movies `range` in pages of 100, as a `movies --all` walk stores them.
    static func walk(_ store: MovieStore, _ range: ClosedRange<Int>) async throws {
        for start in stride(from: range.lowerBound, through: range.upperBound, by: 100) {
            let ids = start...min(start + 99, range.upperBound)
            try await store.saveMovies(ids.map { movie($0) }, api: api, fetchedAt: Date())
        }
    }

    static func makeStore(budget: StoreBudget = budget, url: URL? = nil) throws -> MovieStore {
        try MovieStore(url: url ?? TestFolders.temporary.appendingPathComponent("budget-\(UUID().uuidString)/movies.sqlite"), budget: budget)
    }

    @Test("free pages past the budget are given back at the next write even when nothing needs evicting (the search index frees pages as it merges)")
    func freePagesGivenBack() async throws {
        let url = try await Self.storeWithFreePages()
        let store = try Self.makeStore(url: url)
        try await store.saveMovies([Self.movie(5_000)], api: Self.api, fetchedAt: Date())
        let statistics = try await store.statistics()
        #expect(statistics.databaseBytes <= Self.budget.bytes! + Self.margin, "the file: \(statistics.databaseBytes) bytes")
        #expect(statistics.movies == 101, "nothing was evicted")
    }

    @Test("a run's end gives back free pages past the budget, with no write after them")
    func freePagesGivenBackAtTheEnd() async throws {
        let url = try await Self.storeWithFreePages()
        let store = try Self.makeStore(url: url)
        #expect(try await store.statistics().databaseBytes > Self.budget.bytes! * 2)
        await store.finishRun()
        let statistics = try await store.statistics()
        #expect(statistics.databaseBytes <= Self.budget.bytes! + Self.margin, "the file: \(statistics.databaseBytes) bytes")
        #expect(statistics.movies == 100, "nothing was evicted")
    }

    /// A store of 100 movies, under the budget, in a file more than twice the budget's size, of free pages.
    static func storeWithFreePages() async throws -> URL {
        let url = TestFolders.temporary.appendingPathComponent("budget-\(UUID().uuidString)/movies.sqlite")
        do {
            let store = try Self.makeStore(url: url)
            try await Self.walk(store, 1...100)
        }
        let queue = try DatabaseQueue(path: url.path)
        try await queue.write { db in
            try db.execute(sql: "CREATE TABLE filler (bytes BLOB)")
            for _ in 0..<60 { try db.execute(sql: "INSERT INTO filler VALUES (zeroblob(100000))") }
            try db.execute(sql: "DROP TABLE filler")
        }
        let (pages, free) = try await queue.read { db in
            (try Int64.fetchOne(db, sql: "PRAGMA page_count")!, try Int64.fetchOne(db, sql: "PRAGMA freelist_count")!)
        }
        try queue.close()
        #expect(pages * 4096 > Self.budget.bytes! * 2 && free * 4096 > Self.budget.bytes!, "the file holds \(pages) pages, \(free) free")
        return url
    }

    @Test("a walk of more than the budget holds stays within it; watchlist, pending and lists are kept whole")
    func walkPastTheBudget() async throws {
        let store = try Self.makeStore()
        try await Self.walk(store, 1...200)
        let watched = "\(Self.api) account:alice"
        try await store.replaceWatchlist([WatchlistItem(movieID: 3, note: "on the list", changedAt: 1)], entityTag: nil, api: watched)
        _ = try await store.recordWatchlistChange(movieID: 5, action: .add, note: "pending", api: watched)
        _ = try await store.recordWatchlistChange(movieID: 7, action: .add, api: Self.api)
        let lists = [ListQuery(.topGrossing, year: 2016), ListQuery(.topRated, year: 2016)]
        for (index, query) in lists.enumerated() {
            try await store.saveList((300 + index * 50..<350 + index * 50).map { Self.movie($0) }, for: query, api: Self.api, fetchedAt: Date())
        }

        try await Self.walk(store, 1_000...9_000)

        let statistics = try await store.statistics()
        #expect(statistics.databaseBytes <= Self.budget.bytes! + Self.margin, "the file: \(statistics.databaseBytes) bytes")
        #expect(statistics.usedBytes <= Self.budget.bytes!)
        #expect(statistics.movies < 8_000, "something was evicted")
        #expect(statistics.movies > 500, "not everything was evicted: \(statistics.movies)")
        #expect(try await store.search(MovieSearchRequest(text: nil), limit: 1, api: Self.api).searched == statistics.movies, "the count an offline search reports follows eviction")
        for id in [3, 5, 7] {
            #expect(try await store.movie(id: id, api: Self.api) != nil, "movie \(id), on a watchlist or pending, was evicted")
        }
        #expect(try await store.pendingWatchlistChangeCount(api: watched) == 1)
        #expect(try await store.watchlist(api: watched).lines.map(\.movieID).sorted() == [3, 5])
        #expect(try await store.movie(id: 9_000, api: Self.api) != nil, "the last fetched movie is kept")
        #expect(try await store.movie(id: 1_000, api: Self.api) == nil, "the least recently used movie is evicted")
        var listsKept = 0
        for query in lists {
            if let list = try await store.list(query, api: Self.api) {
                #expect(list.value.count == 50, "\(query) is torn")
                listsKept += 1
            }
        }
        #expect(listsKept < lists.count, "a list, used before the walk, was evicted with its entries")
        #expect(try await store.checkIntegrity().isEmpty)
        try await Self.expectConsistent(store)
    }

    @Test("an eviction step whose caller is cancelled mid-step commits whole, and the writer checks foreign keys again after it")
    func cancelledStep() async throws {
        let store = try Self.makeStore()
        try await Self.walk(store, 1...10)
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let step = Task {
            try await store.writeWithoutForeignKeyPrograms { db in
                started.signal()
                release.wait()
                let apiID = try Int64.fetchOne(db, sql: "SELECT id FROM api WHERE key = ?", arguments: [Self.api])
                try db.execute(sql: "DELETE FROM castMember WHERE apiId = ? AND movieId = 4", arguments: [apiID])
                try db.execute(sql: "DELETE FROM movieWords WHERE rowid = (SELECT rowid FROM movie WHERE apiId = ? AND id = 4)", arguments: [apiID])
                try db.execute(sql: "DELETE FROM movie WHERE apiId = ? AND id = 4", arguments: [apiID])
                try db.execute(sql: "DELETE FROM actor WHERE id NOT IN (SELECT actorId FROM castMember)")
            }
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                started.wait()
                continuation.resume()
            }
        }
        step.cancel()
        release.signal()
        try await step.value
        #expect(try await store.movie(id: 4, api: Self.api) == nil, "the step committed")
        #expect(try await store.movie(id: 5, api: Self.api) != nil)
        #expect(try await store.write { db in try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") } == true, "the writer checks foreign keys")
        try await Self.expectConsistent(store)
    }

    @Test("a movie shown since it was fetched outlives the movies fetched with it")
    func leastRecentlyUsedFirst() async throws {
        let store = try Self.makeStore()
        let shownList = ListQuery(.topRated, year: 1999)
        try await store.saveList((20_000..<20_010).map { Self.movie($0) }, for: shownList, api: Self.api, fetchedAt: Date())
        try await Self.walk(store, 1...1_200)
        #expect(try await store.statistics().movies == 1_210, "nothing is evicted below the budget")
        for id in [10, 20, 30] { _ = try await store.movie(id: id, api: Self.api) }
        _ = try await store.list(shownList, api: Self.api)
        try await store.recordUses()
        // The budget holds more than these 1,210 movies and fewer than 2,010: 800 more push out the oldest.
        try await Self.walk(store, 2_000...2_799)
        #expect(try await store.movie(id: 1_200, api: Self.api) != nil, "too much was evicted to tell")

        for id in [10, 20, 30] { #expect(try await store.movie(id: id, api: Self.api) != nil, "movie \(id) was shown, then evicted") }
        #expect(try await store.movie(id: 11, api: Self.api) == nil, "movie 11, fetched with them and never shown, is kept")
        #expect(try await store.list(shownList, api: Self.api)?.value.count == 10)
    }

    @Test("what a running process shows is kept whatever the budget; a process that ended keeps nothing")
    func shownOnScreen() async throws {
        let store = try Self.makeStore()
        let list = ListQuery(.topGrossing, year: 2001)
        try await store.saveList((50_000..<50_040).map { Self.movie($0) }, for: list, api: Self.api, fetchedAt: Date())
        try await Self.walk(store, 1...100)
        try await store.show(ShownOnScreen(lists: [list], movieIDs: [2, 4]), api: Self.api)
        let ended = try Self.endedProcess()
        try await store.show(ShownOnScreen(movieIDs: [6]), api: Self.api, process: ended)

        try await Self.walk(store, 1_000...6_000)

        #expect(try await store.list(list, api: Self.api)?.value.count == 40, "the list on screen was evicted")
        for id in [2, 4] { #expect(try await store.movie(id: id, api: Self.api) != nil, "movie \(id) on screen was evicted") }
        #expect(try await store.movie(id: 6, api: Self.api) == nil, "a process that ended still holds movie 6")

        try await store.stopShowing()
        try await Self.walk(store, 7_000...12_000)
        #expect(try await store.list(list, api: Self.api) == nil, "the list is kept after the screen closed")
    }

    @Test("a lower budget shrinks the file as the store is next written")
    func lowerBudgetShrinksTheFile() async throws {
        let url = TestFolders.temporary.appendingPathComponent("budget-\(UUID().uuidString)/movies.sqlite")
        let unlimited = try Self.makeStore(budget: .unlimited, url: url)
        try await Self.walk(unlimited, 1...6_000)
        let before = try await unlimited.statistics()
        #expect(before.movies == 6_000, "an unlimited store evicts nothing")
        #expect(before.databaseBytes > 4_000_000)

        let store = try Self.makeStore(url: url)
        try await Self.walk(store, 6_001...6_100)
        for _ in 0..<10 { try await Self.walk(store, 6_101...6_101) }
        let after = try await store.statistics()
        #expect(after.databaseBytes <= Self.budget.bytes! + Self.margin, "the file: \(after.databaseBytes) bytes")
        #expect(try await store.checkIntegrity().isEmpty)
    }

    @Test("eviction far past the budget goes in steps: no transaction removes more than a step's movies")
    func evictionInSteps() async throws {
        let url = TestFolders.temporary.appendingPathComponent("budget-\(UUID().uuidString)/movies.sqlite")
        try await Self.walk(try Self.makeStore(budget: .unlimited, url: url), 1...6_000)
        let store = try Self.makeStore(url: url)
        let deletions = MovieDeletions()
        store.pool.add(transactionObserver: deletions)
        await store.keepWithinBudget()
        let perTransaction = deletions.committed
        #expect(perTransaction.reduce(0, +) > 4_000, "most of the 6,000 movies went: \(perTransaction)")
        #expect(perTransaction.count >= 3, "in several transactions: \(perTransaction)")
        #expect(perTransaction.allSatisfy { $0 <= 2_000 }, "at most 2,000 movies a step, as the documentation says: \(perTransaction)")
    }

    @Test("a cancelled caller stops eviction after the step under way; the next write goes on")
    func cancelledBetweenSteps() async throws {
        let url = TestFolders.temporary.appendingPathComponent("budget-\(UUID().uuidString)/movies.sqlite")
        try await Self.walk(try Self.makeStore(budget: .unlimited, url: url), 1...6_000)
        let store = try Self.makeStore(url: url)
        let deletions = MovieDeletions()
        store.pool.add(transactionObserver: deletions)
        let (go, letGo) = AsyncStream<Void>.makeStream()
        let eviction = Task {
            for await _ in go { break }
            await store.keepWithinBudget()
        }
        deletions.afterDeletingCommit { eviction.cancel() }
        letGo.yield()
        await eviction.value
        #expect(deletions.committed.count == 1, "one step, then it stopped: \(deletions.committed)")

        await store.keepWithinBudget()
        #expect(deletions.committed.count >= 3, "the next call evicts the rest: \(deletions.committed)")
    }

    @Test("a store made before the budget is converted to give pages back, and keeps its data")
    func convertsAnOlderStore() async throws {
        let url = TestFolders.temporary.appendingPathComponent("budget-\(UUID().uuidString)/movies.sqlite")
        do {
            let store = try Self.makeStore(budget: .unlimited, url: url)
            try await Self.walk(store, 1...300)
        }
        let queue = try DatabaseQueue(path: url.path)
        try await queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA auto_vacuum = NONE; VACUUM") }
        #expect(try await queue.read { try Int.fetchOne($0, sql: "PRAGMA auto_vacuum") } == 0)
        try queue.close()

        let store = try Self.makeStore(url: url)
        #expect(try await store.read { try Int.fetchOne($0, sql: "PRAGMA auto_vacuum") } == 2)
        #expect(try await store.statistics().movies == 300)
    }

    /// Every cast names a stored movie and a stored actor, every search row a stored movie, and
    /// no actor is left that no cast names.
    static func expectConsistent(_ store: MovieStore) async throws {
        let counts = try await store.read { db in
            [
                try Int.fetchOne(db, sql: "SELECT count(*) FROM movieWords WHERE rowid NOT IN (SELECT rowid FROM movie)") ?? -1,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM movie WHERE rowid NOT IN (SELECT rowid FROM movieWords)") ?? -1,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM castMember WHERE NOT EXISTS (SELECT 1 FROM movie WHERE movie.apiId = castMember.apiId AND movie.id = castMember.movieId)") ?? -1,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM actor WHERE id NOT IN (SELECT actorId FROM castMember)") ?? -1,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM listEntry WHERE NOT EXISTS (SELECT 1 FROM movie WHERE movie.apiId = listEntry.apiId AND movie.id = listEntry.movieId)") ?? -1,
            ]
        }
        #expect(counts == [0, 0, 0, 0, 0], "search rows without movies, movies without search rows, casts without movies, actors without casts, list entries without movies")
        #expect(try await store.read { db in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count } == 0, "a row names one that is gone")
        // Eviction turns the connection's foreign-key programs off for its steps: they are on again after.
        await #expect(throws: StoreError.self, "the writer checks foreign keys again") {
            try await store.write { db in try db.execute(sql: "INSERT INTO castMember (apiId, movieId, position, actorId) VALUES (1, -1, 0, -1)") }
        }
    }

    /// The id of no process: one past the largest the kernel gives (`/proc/sys/kernel/pid_max`),
    /// so that no process can hold it, found without starting one (a unit suite starts none).
    static func endedProcess() throws -> Int32 {
        let text = try String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8)
        let largest = try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        return largest + 1
    }
}

/// How many movie rows each committed transaction deleted.
private final class MovieDeletions: TransactionObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var pending = 0
    private var counts: [Int] = []
    private var onCommit: (@Sendable () -> Void)?

    var committed: [Int] { lock.withLock { counts } }

    /// Calls `action` after each commit that deleted movies.
    func afterDeletingCommit(_ action: @escaping @Sendable () -> Void) {
        lock.withLock { onCommit = action }
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        if case let .delete(table) = eventKind { return table == "movie" }
        return false
    }

    func databaseDidChange(with event: DatabaseEvent) {
        // A statement whose triggers write other tables reports their rows too.
        guard event.tableName == "movie", event.kind == .delete else { return }
        lock.withLock { pending += 1 }
    }

    func databaseDidCommit(_ db: Database) {
        let action = lock.withLock { () -> (@Sendable () -> Void)? in
            defer { pending = 0 }
            guard pending > 0 else { return nil }
            counts.append(pending)
            return onCommit
        }
        action?()
    }

    func databaseDidRollback(_ db: Database) {
        lock.withLock { pending = 0 }
    }
}
