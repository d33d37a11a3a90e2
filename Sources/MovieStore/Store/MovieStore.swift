import FileLocking
import Foundation
import GRDB
import MovieContract
import Movies
import SearchPlanning
import TextFormatting

/// The movies the app has seen, in a SQLite file (GRDB, WAL mode): for each API its movies,
/// their casts in billing order (actors shared by name), and for each list the exact answer the
/// server last gave. Nothing stored for one API (``APIKey``) is ever read for another.
///
/// Every write is one transaction, so a failure or a killed process leaves the previous data
/// whole. A file that is not a readable store is reported, never replaced or adopted.
public final class MovieStore: Sendable {
    /// Names the API data belongs to; the caller decides the names.
    public typealias APIKey = String

    public let url: URL
    /// The most the store may take on disk; past it, what was used least recently is evicted.
    public let budget: StoreBudget
    let pool: DatabasePool
    let uses = PendingUses()
    /// Each API's facets for filtered pages, read at the first and kept while current.
    let facets = StoredFacetsCache()

    /// The version of the schema this build writes: the number of migration steps it knows.
    public static let schemaVersion = StoreMigrations.migrator.migrations.count

    /// Opens the store at `url`, creating it (and its folder) when missing and migrating it to
    /// the current schema. Processes that open the same new file at once wait for each other
    /// (a lock on `<file>-lock`), so the schema is created exactly once. Past `budget`, the
    /// movies and lists used least recently are evicted as the store grows.
    public init(url: URL, budget: StoreBudget = .unlimited) throws(StoreError) {
        self.url = url
        self.budget = budget
        // Refused before a lock file is made beside it, and checked again under the lock. A store
        // being created is never mistaken for something else: it is empty until its first
        // migration commits, and has taken the store's first step after.
        if let refusal = StoreFile.classify(url).refusal { throw .notAStore(path: url.path, reason: refusal) }
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw .cannotOpen(path: url.path, reason: FileErrorText.reason(error))
        }
        var configuration = Configuration()
        configuration.label = "MovieStore"
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            guard !db.configuration.readonly else { return }
            try db.execute(sql: "PRAGMA cache_size = -\(Self.writerCacheKiB); PRAGMA journal_size_limit = \(Self.logSizeLimit)")
        }
        do {
            pool = try FileLock(url: Self.lockURL(for: url)).withLockBlocking {
                if let refusal = StoreFile.classify(url).refusal { throw StoreError.notAStore(path: url.path, reason: refusal) }
                try StoreFile.makePrivate(url)
                let pool = try DatabasePool(path: url.path, configuration: configuration)
                try FileShrinking.enable(in: pool)
                let migrator = StoreMigrations.migrator
                if try pool.read(migrator.hasBeenSuperseded) { throw StoreError.newerVersion(path: url.path) }
                try migrator.migrate(pool)
                return pool
            }
        } catch let error as FileLock.Failure {
            throw .cannotOpen(path: url.path, reason: error.description)
        } catch {
            throw StoreError(error, path: url.path)
        }
    }

    /// Makes `movies` the stored answer of `api` to `query`, with its entity tag and max-age, in one transaction.
    public func saveList(_ movies: [Movie], for query: ListQuery, api: APIKey, fetchedAt: Date, freshness: Freshness = .unknown) async throws(StoreError) {
        try await write { db in
            try MovieWriting.replaceList(query, with: movies, api: api, fetchedAt: fetchedAt, freshness: freshness, in: db)
        }
        await keepWithinBudget()
    }

    /// Stores `movies` of `api` (and their casts), in one transaction, without touching any list.
    /// `freshness` is what the server said of a movie asked by id.
    public func saveMovies(_ movies: [Movie], api: APIKey, fetchedAt: Date, freshness: Freshness? = nil) async throws(StoreError) {
        try await write { db in try MovieWriting.upsert(movies, api: api, fetchedAt: fetchedAt, freshness: freshness, in: db) }
        await keepWithinBudget()
    }

    /// Records that the server confirmed (`304`) the stored answer to `query` tagged `entityTag`:
    /// its age starts again from `fetchedAt`, and no movie row is written. `false` when that
    /// answer is no longer stored.
    public func revalidateList(_ query: ListQuery, api: APIKey, entityTag: String, fetchedAt: Date, freshness: Freshness) async throws(StoreError) -> Bool {
        try await write { db in
            try MovieWriting.revalidateList(query, api: api, entityTag: entityTag, fetchedAt: fetchedAt, freshness: freshness, in: db)
        }
    }

    /// Records that the server confirmed the stored movie `id` tagged `entityTag`.
    public func revalidateMovie(id: Int, api: APIKey, entityTag: String, fetchedAt: Date, freshness: Freshness) async throws(StoreError) -> Bool {
        try await write { db in
            try MovieWriting.revalidateMovie(id: id, api: api, entityTag: entityTag, fetchedAt: fetchedAt, freshness: freshness, in: db)
        }
    }

    /// The last stored answer of `api` to `query`, exactly as the server gave it.
    public func list(_ query: ListQuery, api: APIKey) async throws(StoreError) -> StoredValue<[Movie]>? {
        let list = try await read { db in try MovieReading.list(query, api: api, in: db) }
        if list != nil { uses.noteList(query, api: api) }
        return list
    }

    public func movie(id: Int, api: APIKey) async throws(StoreError) -> StoredValue<Movie>? {
        let movie = try await read { db in try MovieReading.movie(id: id, api: api, in: db) }
        if movie != nil { await noteUse(of: [id], api: api) }
        return movie
    }

    /// `query`'s list made from `api`'s stored movies of its year, with how many there are;
    /// `nil` when none is stored. Not the server's answer: see ``CachedMovieService``.
    public func derivedList(_ query: ListQuery, api: APIKey) async throws(StoreError) -> (StoredValue<[Movie]>, records: Int)? {
        let derived = try await read { db in try MovieReading.derivedList(query, api: api, in: db) }
        if let derived { await noteUse(of: derived.0.value.map(\.id), api: api) }
        return derived
    }

    /// `api`'s stored movies that `request` matches, in its order: the first `limit`, or all with
    /// `nil`; and how many of the API's movies were searched.
    public func search(_ request: MovieSearchRequest, limit: Int?, api: APIKey) async throws(StoreError) -> (movies: [Movie], searched: Int) {
        try await search(request, limit: limit, api: api, tierReading: .bySize)
    }

    /// ``search(_:limit:api:)`` with each relevance read one way (``TierReading``), for the tests.
    func search(_ request: MovieSearchRequest, limit: Int?, api: APIKey, tierReading: TierReading) async throws(StoreError) -> (movies: [Movie], searched: Int) {
        let facets = self.facets
        let found = try await read { db in try MovieSearching.search(request, limit: limit, api: api, in: db, facets: facets, tierReading: tierReading) }
        await noteUse(of: found.movies.map(\.id), api: api)
        return found
    }

    /// What the store holds, API by API.
    public func statistics() async throws(StoreError) -> StoreStatistics {
        let url = self.url
        let budget = self.budget
        return try await read { db in try StoreStatistics.read(from: db, url: url, budget: budget) }
    }

    /// Removes everything stored for `api`, in one transaction. Returns whether there was anything.
    @discardableResult
    public func removeAPI(_ api: APIKey) async throws(StoreError) -> Bool {
        try await write { db in
            let count = try Int.fetchOne(db, sql: "SELECT (SELECT COUNT(*) FROM movie WHERE apiId = \(StoredAPI.idOfKey)) + (SELECT COUNT(*) FROM listSnapshot WHERE apiId = \(StoredAPI.idOfKey))", arguments: [api, api]) ?? 0
            try MovieWriting.removeAPI(api, in: db)
            return count > 0
        }
    }

    /// SQLite's `PRAGMA integrity_check`: an empty list when the file is sound, else its findings.
    public func checkIntegrity() async throws(StoreError) -> [String] {
        try await read { db in
            let findings = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            return findings == ["ok"] ? [] : findings
        }
    }

    /// The writer's page cache, in KiB (SQLite's default is 2,000). A write of many movies touches
    /// pages of every table and index over and over; when they do not fit, SQLite spills them to
    /// the log and reads them back. Pages are only allocated as they are used.
    public static let writerCacheKiB = 32_768

    /// What the write-ahead log is cut back to, in bytes, once SQLite starts it over after a
    /// checkpoint: a large write does not leave a log of its size beside the store for as long as
    /// the process runs.
    static let logSizeLimit = 4 * 1_048_576

    static func lockURL(for url: URL) -> URL {
        URL(fileURLWithPath: url.path + "-lock")
    }

    func read<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws(StoreError) -> Value {
        do {
            return try await pool.read(body)
        } catch {
            throw StoreError(error, path: url.path)
        }
    }

    /// Runs `body` in one transaction and returns what it returned. The uses read since the
    /// last write are stamped in the same transaction.
    @discardableResult
    func write<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws(StoreError) -> Value {
        let taken = uses.take()
        do {
            return try await pool.write { db in
                try PendingUses.stamp(taken, in: db)
                return try body(db)
            }
        } catch {
            uses.restore(taken)
            throw StoreError(error, path: url.path)
        }
    }
}
