import Foundation
import GRDB
import Logging
import MovieContract
import MovieServer
import NIOConcurrencyHelpers
import SearchPlanning

/// Server storage in one SQLite file (through GRDB, in WAL mode): the catalog and refresh
/// tokens survive a restart of the one instance that uses it.
public final class SQLiteStorage: CatalogImporting, Sendable {
    public let path: String
    private let pool: DatabasePool
    /// How long a request (or an import, for the file's lock) may wait for the database.
    private let queryTimeout: Duration
    /// When the write running now must give up waiting for another process's lock.
    private let writeDeadline: NIOLockedValueBox<ContinuousClock.Instant?>
    let tierReading: TierReading
    /// The in-process search index, when searches use one.
    let searchIndex: SearchIndexKeeper?
    public let failures: StorageFailures
    /// Its database calls as spans of traced requests, once the server asks (``recordDatabaseSpans()``).
    let spans = DatabaseSpans()

    /// Opens (creating when missing) and migrates the file at `path`. A file of another program,
    /// a client store, one written by a newer Marquee, or anything but a regular file is refused
    /// untouched: it is classified read-only before anything is opened for writing.
    public convenience init(path: String, queryTimeout: Duration = .seconds(5)) async throws(StorageError) {
        try await self.init(path: path, queryTimeout: queryTimeout, tierReading: .bySize, searchIndexing: .inProcess, logger: Logger(label: "marquee.database"))
    }

    /// As ``init(path:queryTimeout:)``, with each relevance of a search read one way (``TierReading``)
    /// and the in-process index or not, for the tests.
    package init(
        path: String, queryTimeout: Duration, tierReading: TierReading, searchIndexing: SearchIndexing, logger: Logger
    ) async throws(StorageError) {
        self.path = path
        self.queryTimeout = queryTimeout
        self.tierReading = tierReading
        let failures = StorageFailures(logger: logger)
        self.failures = failures
        if case let .refused(error) = SQLiteServerFile.classify(path, migrations: SQLiteSchema.migrator.migrations) { throw error }
        try SQLiteServerFile.createPrivately(path, logger: logger)
        let writeDeadline = NIOLockedValueBox<ContinuousClock.Instant?>(nil)
        self.writeDeadline = writeDeadline
        var configuration = Configuration()
        configuration.busyMode = .callback { tries in
            let deadline = writeDeadline.withLockedValue { $0 }
            if let deadline { guard ContinuousClock.now < deadline else { return false } }
            else if Duration.milliseconds(10 * tries) >= queryTimeout { return false }
            usleep(10_000)
            return true
        }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
        } catch {
            throw .unreachable("the SQLite file \(path)", reason: Self.reason(error))
        }
        let pool = pool
        searchIndex = searchIndexing == .off ? nil : SearchIndexKeeper(
            logger: logger, snapshots: SQLiteSearchIndexSnapshots.store(for: pool).counted(in: failures) { Self.reason($0) }
        ) {
            try await pool.read(SQLiteSearchEntries.read)
        }
        try await SQLiteSchema.migrate(pool, location: path)
    }

    let watchlistPurge = WatchlistPurgeSchedule()
    let shelfPurge = WatchlistPurgeSchedule()

    public func recordDatabaseSpans() {
        spans.turnOn()
    }

    public var summary: String { "SQLite file \(path)" }

    public func onFeedNotification(_ wake: @escaping @Sendable () -> Void) -> Bool { false }

    public func checkHealth() async throws(StorageError) {
        _ = try await read("healthCheck") { db in try Int.fetchOne(db, sql: "SELECT 1") }
    }

    public func close() async {
        await searchIndex?.close()
        try? pool.close()
    }

    public func importMovies(
        _ movies: CatalogBatches,
        batchSize: Int,
        replacement: CatalogReplacement,
        progress: @escaping @Sendable (Int) -> Void
    ) async throws(StorageError) -> CatalogImportSummary {
        try await spans.aroundImport(in: spanDatabase, failures: failures) { () async throws(StorageError) -> CatalogImportSummary in
            let indexesSearch = searchIndex != nil
            do {
                return try await pool.write { db in
                    // Movies arrive in id order, and every order's index takes them at random places:
                    // with SQLite's default 2 MB of pages those indexes were read back from the file
                    // again and again (a million movies took 82 s, 46 s without the search's indexes).
                    try db.execute(sql: "PRAGMA cache_size = -\(Self.importCacheKiB)")
                    defer { try? db.execute(sql: "PRAGMA cache_size = -2000") }
                    let droppedIndexes = try SQLiteSchema.OrderIndexes.dropForBulkImport(of: movies.count, in: db)
                    var summary = CatalogImportSummary()
                    var writer = SQLiteCatalogWriter(db: db)
                    var done = 0
                    for batch in movies.batches(of: batchSize) {
                        let existing = try SQLiteCatalogQueries.movies(db, ids: batch.map(\.id))
                        let plan = try CatalogImportPlan(batch: batch, existing: existing, replacement: replacement)
                        let replaced = Set(plan.changedIDs)
                        for movie in plan.moviesToWrite { try writer.write(movie, replaces: replaced.contains(movie.id)) }
                        summary.add(plan)
                        done += batch.count
                        progress(done)
                    }
                    try SQLiteSchema.OrderIndexes.create(droppedIndexes, in: db)
                    // The movies' source and the pages go back before the search index is made from what was written.
                    movies.release()
                    try db.execute(sql: "PRAGMA cache_size = -2000")
                    FreedMemory.returnToSystem()
                    if summary.added + summary.changed > 0 {
                        try db.execute(sql: "UPDATE catalog_state SET version = version + 1")
                        let version = try Int64.fetchOne(db, sql: "SELECT version FROM catalog_state") ?? 0
                        if indexesSearch { try SQLiteSearchIndexSnapshots.writeForImport(version: version, in: db) }
                        else { try db.execute(sql: "DELETE FROM search_index_snapshot") }
                        try SQLiteFeed.append([.catalog(version: version)], now: Date(), in: db)
                    }
                    return summary
                }
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
                throw .unreachable("the SQLite file \(path)", reason: "another process held the database's lock for \(queryTimeout.secondsText)")
            } catch let error as StorageError {
                throw error
            } catch {
                throw .queryFailed(Self.reason(error))
            }
    
        }
    }

    /// The page cache of the connection that imports, in KiB: 32 MiB. With the order indexes
    /// dropped for a bulk import, a million IMDb films took 93 to 102 s with 64 MiB and 90 to 92 s
    /// with 160 or 256 MiB, whose pages the importer kept after it (512 MB is its budget). SQLite takes pages
    /// as it needs them, and gives them back after the import.
    static let importCacheKiB = 32_768

    /// Runs `body` on a reader, giving up at the request's deadline.
    func read<T: Sendable>(_ method: String = #function, _ body: @escaping @Sendable (Database) throws -> T) async throws(StorageError) -> T {
        try await spans.around(method, in: spanDatabase) { () async throws(StorageError) -> T in try await untracedRead(method, body) }
    }

    private func untracedRead<T: Sendable>(_ method: String, _ body: @escaping @Sendable (Database) throws -> T) async throws(StorageError) -> T {
        let limit = RequestDeadline.remaining(limit: queryTimeout)
        let pool = pool
        do {
            return try await Deadline.run(within: limit) { try await pool.read(body) }
        } catch is Deadline.Exceeded {
            throw failed(.unreachable("the SQLite file \(path)", reason: "no answer within \(queryTimeout.secondsText) for this request"), in: method)
        } catch {
            throw failed(.queryFailed(Self.reason(error)), in: method)
        }
    }

    private func failed(_ error: StorageError, in method: String) -> StorageError {
        failures.record(error, in: method)
        return error
    }

    /// Runs `body` in an immediate transaction, giving up at the request's deadline: while
    /// another process holds the file's lock, while earlier writes wait in the writer's queue,
    /// or both. A write whose turn comes after its deadline is not made.
    func write<T: Sendable>(_ method: String = #function, _ body: @escaping @Sendable (Database) throws -> T) async throws(StorageError) -> T {
        try await spans.around(method, in: spanDatabase) { () async throws(StorageError) -> T in try await untracedWrite(method, body) }
    }

    /// The file, as a span of database work names it.
    private var spanDatabase: DatabaseSpans.Database { DatabaseSpans.Database(system: "sqlite", namespace: path) }

    private func untracedWrite<T: Sendable>(_ method: String, _ body: @escaping @Sendable (Database) throws -> T) async throws(StorageError) -> T {
        let limit = RequestDeadline.remaining(limit: queryTimeout)
        let deadline = ContinuousClock.now + limit
        let (pool, writeDeadline) = (pool, writeDeadline)
        do {
            return try await Deadline.run(within: limit) {
                try await pool.writeWithoutTransaction { db in
                    guard ContinuousClock.now < deadline else { throw Deadline.Exceeded() }
                    writeDeadline.withLockedValue { $0 = deadline }
                    defer { writeDeadline.withLockedValue { $0 = nil } }
                    var result: T?
                    try db.inTransaction(.immediate) {
                        result = try body(db)
                        return .commit
                    }
                    guard let result else { throw Deadline.Exceeded() }
                    return result
                }
            }
        } catch is Deadline.Exceeded {
            throw failed(.unreachable("the SQLite file \(path)", reason: "the database stayed locked for \(queryTimeout.secondsText) for this request"), in: method)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            throw failed(.unreachable("the SQLite file \(path)", reason: "the database stayed locked for \(queryTimeout.secondsText) for this request"), in: method)
        } catch {
            throw failed(.queryFailed(Self.reason(error)), in: method)
        }
    }

    static func reason(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? error.description }
        return String(describing: error)
    }
}
