// The movie store against SQLite itself: the cached top-10 read through MovieStore against the
// same query run as a raw statement, with 10k, 100k and 1M movies stored; and a bulk upsert of
// 100k movies. scripts/bench turns the pairs into ratios, and adds the file size per movie.
import Benchmark
import Foundation
import GRDB
import MovieContract
import MovieServer
import MovieStore
import Movies

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: 50,
        maxDuration: .seconds(3),
        maxIterations: 200_000
    )

    for size in StoreFixture.sizes {
        Benchmark("store/Marquee cached top-10 read, \(size.label) movies", closure: { benchmark in
            let store = try await StoreFixture.shared.store(size: size.count)
            for _ in benchmark.scaledIterations {
                blackHole(try await store.list(ListQuery(.topGrossing, year: 2016), api: benchAPI))
            }
        }, setup: { _ = try await StoreFixture.shared.store(size: size.count) },
        teardown: { StoreFixture.shared.remove(size: size.count) })

        // Offline search: three words that match many stored movies, the first page of 20.
        Benchmark("store/offline search, first page, \(size.label) movies", closure: { benchmark in
            let store = try await StoreFixture.shared.store(size: size.count)
            let requests = ["the", "golden harbor", "ava"].map { MovieSearchRequest(text: $0) }
            for _ in benchmark.scaledIterations {
                blackHole(try await store.search(requests[benchmark.currentIteration % requests.count], limit: 20, api: benchAPI))
            }
        }, setup: { _ = try await StoreFixture.shared.store(size: size.count) },
        teardown: { StoreFixture.shared.remove(size: size.count) })

        // Filtered listing and search offline: 200 drawn requests (one to three filters, a sort,
        // words for two in five) against the same requests without their filters, the baseline.
        if size.count == 100_000 {
            for filtered in [true, false] {
                Benchmark("store/offline \(filtered ? "filtered" : "unfiltered (baseline)") listing and search, 200 draws, \(size.label) movies", closure: { benchmark in
                    let store = try await StoreFixture.shared.store(size: size.count)
                    let requests = FilterDraws.requests(count: 200, seed: 3, filtered: filtered)
                    // Each sample is one request, the next of the draws: `scaledIterations` starts again at 0 in every sample.
                    for _ in benchmark.scaledIterations {
                        blackHole(try await store.search(requests[benchmark.currentIteration % requests.count], limit: 20, api: benchAPI))
                    }
                }, setup: { _ = try await StoreFixture.shared.store(size: size.count) },
                teardown: { StoreFixture.shared.remove(size: size.count) })
            }
        }

        Benchmark("store/raw SQLite top-10 read, \(size.label) movies", closure: { benchmark in
            let pool = try await StoreFixture.shared.rawPool(size: size.count)
            for _ in benchmark.scaledIterations {
                blackHole(try await pool.read(StoreFixture.rawTopTen))
            }
        }, setup: { _ = try await StoreFixture.shared.rawPool(size: size.count) },
        teardown: { StoreFixture.shared.remove(size: size.count) })
    }

    // Raw inserts and Marquee's upsert alternate, the order flipped every round, so that a noisy
    // stretch of the host hits both; each round's two times go to the extra figures.
    Benchmark("store/bulk write of 100k movies, raw inserts and Marquee's upsert interleaved", configuration: .init(metrics: [.wallClock, .throughput], warmupIterations: 0, maxDuration: .seconds(120), maxIterations: 5)) { benchmark in
        let movies = StoreFixture.movies(count: 100_000)
        let rawFirst = benchmark.currentIteration.isMultiple(of: 2)
        if rawFirst { ExtraFigures.append("store-raw-insert-seconds \(try await rawBulkInsert(movies))") }
        try await marqueeBulkUpsert(movies)
        if !rawFirst { ExtraFigures.append("store-raw-insert-seconds \(try await rawBulkInsert(movies))") }
    }
}

/// The 100k movies saved into an empty store in one call; records the time and the store's size
/// on disk right after, and once closed.
func marqueeBulkUpsert(_ movies: [Movie]) async throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("bench-upsert-\(UUID().uuidString)/movies.sqlite")
    var store: MovieStore? = try MovieStore(url: url)
    let started = ContinuousClock.now
    try await store?.saveMovies(movies, api: benchAPI, fetchedAt: Date())
    let seconds = (ContinuousClock.now - started) / .seconds(1)
    let withLog = try await store?.statistics().sizeInBytes ?? 0
    // Closing folds the write-ahead log into the file and removes it: what the store keeps.
    store = nil
    let closed = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.doubleValue ?? 0
    ExtraFigures.append("""
        store-upsert-seconds \(seconds)
        store-size-bytes-per-movie \(Double(withLog) / Double(movies.count))
        store-closed-file-bytes-per-movie \(closed / Double(movies.count))
        """)
    _ = try? StoreFile.removeStore(at: url)
}

/// The API the benchmark's data is stored under.
let benchAPI = "http://bench.invalid/api/"

/// The same 100k movies, casts and actors written by plain prepared statements in one
/// transaction into the same schema, with the same page cache as the store's writer: SQLite's own
/// cost, the floor for the bulk upsert.
func rawBulkInsert(_ movies: [Movie]) async throws -> Double {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("bench-raw-\(UUID().uuidString)/movies.sqlite")
    _ = try MovieStore(url: url)
    var configuration = Configuration()
    configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = -\(MovieStore.writerCacheKiB)") }
    let pool = try DatabasePool(path: url.path, configuration: configuration)
    let started = ContinuousClock.now
    try await pool.write { db in
        try db.execute(sql: "INSERT INTO api (key) VALUES (?)", arguments: [benchAPI])
        let apiID = db.lastInsertedRowID
        let movie = try db.makeStatement(sql: "INSERT INTO movie (apiId, id, name, year, releaseDate, grossing, rating, fetchedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        let actor = try db.makeStatement(sql: "INSERT INTO actor (name) VALUES (?)")
        let cast = try db.makeStatement(sql: "INSERT INTO castMember (apiId, movieId, position, actorId) VALUES (?, ?, ?, ?)")
        var actorIDs: [String: Int64] = [:]
        for entry in movies {
            movie.setUncheckedArguments([apiID, entry.id, entry.name, entry.year, "2016-01-01", entry.grossing, entry.rating, 0.0])
            try movie.execute()
            for (position, member) in entry.cast.enumerated() {
                let id: Int64
                if let known = actorIDs[member.name] {
                    id = known
                } else {
                    actor.setUncheckedArguments([member.name])
                    try actor.execute()
                    id = db.lastInsertedRowID
                    actorIDs[member.name] = id
                }
                cast.setUncheckedArguments([apiID, entry.id, position, id])
                try cast.execute()
            }
        }
    }
    let seconds = (ContinuousClock.now - started) / .seconds(1)
    _ = try? StoreFile.removeStore(at: url)
    return seconds
}

/// Stores of each size, filled once per process, with a top-grossing list of 2016.
final class StoreFixture: @unchecked Sendable {
    static let shared = StoreFixture()
    static let sizes: [(count: Int, label: String)] = [(10_000, "10k"), (100_000, "100k"), (1_000_000, "1M")]

    private let lock = NSLock()
    private var stores: [Int: MovieStore] = [:]
    private var pools: [Int: DatabasePool] = [:]

    func store(size: Int) async throws -> MovieStore {
        if let store = lock.withLock({ stores[size] }) { return store }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bench-store-\(size)-\(UUID().uuidString)/movies.sqlite")
        let store = try MovieStore(url: url)
        let movies = Self.movies(count: size)
        for batch in stride(from: 0, to: movies.count, by: 50_000) {
            try await store.saveMovies(Array(movies[batch..<min(batch + 50_000, movies.count)]), api: benchAPI, fetchedAt: Date())
        }
        let top = movies.filter { $0.year == 2016 }.sorted { $0.grossing > $1.grossing }.prefix(10)
        try await store.saveList(Array(top), for: ListQuery(.topGrossing, year: 2016), api: benchAPI, fetchedAt: Date())
        lock.withLock { stores[size] = store }
        return store
    }

    /// Closes the store of `size` and deletes its files: a 1M-movie store is hundreds of MB, and
    /// each benchmark may run in a process of its own.
    func remove(size: Int) {
        let store = lock.withLock { () -> MovieStore? in
            pools[size] = nil
            return stores.removeValue(forKey: size)
        }
        guard let url = store?.url else { return }
        _ = consume store
        try? FileManager.default.removeItem(at: url.deletingLastPathComponent())
    }

    /// A second connection pool on the same file, for the raw baseline.
    func rawPool(size: Int) async throws -> DatabasePool {
        if let pool = lock.withLock({ pools[size] }) { return pool }
        let store = try await store(size: size)
        let pool = try DatabasePool(path: store.url.path)
        lock.withLock { pools[size] = pool }
        return pool
    }

    /// The read MovieStore makes, as two raw statements: the ordered list, then the casts.
    @Sendable static func rawTopTen(_ db: Database) throws -> Int {
        let rows = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT movie.* FROM listEntry JOIN movie ON movie.apiId = listEntry.apiId AND movie.id = listEntry.movieId
            WHERE listEntry.apiId = (SELECT id FROM api WHERE key = ?) AND listEntry.query = 'topGrossing/2016' ORDER BY listEntry.position
            """), arguments: [benchAPI])
        let ids = rows.map { $0["id"] as Int }
        let casts = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT castMember.movieId, actor.name FROM castMember JOIN actor ON actor.id = castMember.actorId
            WHERE castMember.apiId = (SELECT id FROM api WHERE key = ?) AND castMember.movieId IN (\(Array(repeating: "?", count: ids.count).joined(separator: ","))) ORDER BY castMember.movieId, castMember.position
            """), arguments: StatementArguments([benchAPI]) + StatementArguments(ids))
        return rows.count + casts.count
    }

    static func movies(count: Int) -> [Movie] {
        SyntheticCatalog.movies(count: count, seed: 7, years: 1950...2024).map { movie in
            Movie(
                id: movie.id, name: movie.name, year: movie.year,
                releaseDate: CalendarDate.date(from: movie.releaseDate) ?? Date(timeIntervalSince1970: 0),
                grossing: movie.grossing, rating: movie.rating, cast: movie.cast.map { MovieActor(name: $0.name) },
                details: FilterDraws.details(id: movie.id)
            )
        }
    }
}

/// Figures package-benchmark has no metric for, appended to `$MARQUEE_BENCH_RESULTS/extra-figures.txt`
/// for scripts/bench's report.
enum ExtraFigures {
    static func append(_ lines: String) {
        guard let folder = ProcessInfo.processInfo.environment["MARQUEE_BENCH_RESULTS"] else { return }
        let url = URL(fileURLWithPath: folder).appendingPathComponent("extra-figures.txt")
        if !FileManager.default.fileExists(atPath: url.path) { _ = FileManager.default.createFile(atPath: url.path, contents: nil) }
        guard let handle = try? FileHandle(forWritingTo: url) else { return }
        handle.seekToEndOfFile()
        handle.write(Data((lines + "\n").utf8))
        try? handle.close()
    }
}
