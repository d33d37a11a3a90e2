import Foundation
import GRDB
import Movies

/// The movies the app has seen, in a SQLite file (GRDB, WAL mode): movies, shared actors, casts
/// in billing order, and for each list the exact answer the server last gave.
///
/// Every write is one transaction, so a failure or a killed process leaves the previous data
/// whole. A file that is not a readable store is reported, never replaced.
public final class MovieStore: Sendable {
    public let url: URL
    private let pool: DatabasePool

    /// Opens the store at `url`, creating it (and its folder) when missing and migrating it to
    /// the current schema.
    public init(url: URL) throws(StoreError) {
        self.url = url
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw .cannotOpen(path: url.path, reason: (error as NSError).localizedDescription)
        }
        var configuration = Configuration()
        configuration.label = "marquee.store"
        configuration.busyMode = .timeout(10)
        do {
            let pool = try DatabasePool(path: url.path, configuration: configuration)
            let migrator = StoreMigrations.migrator
            if try pool.read(migrator.hasBeenSuperseded) { throw StoreError.newerVersion(path: url.path) }
            try migrator.migrate(pool)
            self.pool = pool
        } catch {
            throw Self.storeError(error, path: url.path)
        }
    }

    /// `$XDG_CACHE_HOME/marquee/movies.sqlite`, else `~/.cache/marquee/movies.sqlite`.
    public static func defaultURL(environment variables: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let cacheHome = variables["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: variables["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".cache")
        return cacheHome.appendingPathComponent("marquee").appendingPathComponent("movies.sqlite")
    }

    /// Makes `movies` the stored answer to `query`, in one transaction.
    public func saveList(_ movies: [Movie], for query: ListQuery, fetchedAt: Date) async throws(StoreError) {
        try await write { db in try MovieWriting.replaceList(query, with: movies, fetchedAt: fetchedAt, in: db) }
    }

    /// Stores `movies` (and their casts), in one transaction, without touching any list.
    public func saveMovies(_ movies: [Movie], fetchedAt: Date) async throws(StoreError) {
        try await write { db in try MovieWriting.upsert(movies, fetchedAt: fetchedAt, in: db) }
    }

    /// The last stored answer to `query`, exactly as the server gave it.
    public func list(_ query: ListQuery) async throws(StoreError) -> StoredValue<[Movie]>? {
        try await read { db in try MovieReading.list(query, in: db) }
    }

    public func movie(id: Int) async throws(StoreError) -> StoredValue<Movie>? {
        try await read { db in try MovieReading.movie(id: id, in: db) }
    }

    /// The stored answer to `query` now and after every change to it.
    public func observeList(_ query: ListQuery) -> AsyncThrowingStream<StoredValue<[Movie]>?, any Error> {
        observe { db in try MovieReading.list(query, in: db) }
    }

    /// The stored movie now and after every change to it.
    public func observeMovie(id: Int) -> AsyncThrowingStream<StoredValue<Movie>?, any Error> {
        observe { db in try MovieReading.movie(id: id, in: db) }
    }

    /// What the store holds, for `marquee cache stats`.
    public func statistics() async throws(StoreError) -> StoreStatistics {
        let url = self.url
        return try await read { db in try StoreStatistics.read(from: db, url: url) }
    }

    /// SQLite's `PRAGMA integrity_check`: an empty list when the file is sound, else its findings.
    public func checkIntegrity() async throws(StoreError) -> [String] {
        try await read { db in
            let findings = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            return findings == ["ok"] ? [] : findings
        }
    }

    /// Deletes the store file at `url` with its WAL and shared-memory files, without opening it,
    /// so a damaged file can be removed too. Returns whether there was anything to remove.
    @discardableResult
    public static func removeFiles(at url: URL) throws(StoreError) -> Bool {
        var removed = false
        for suffix in ["", "-wal", "-shm"] {
            let path = url.path + suffix
            guard FileManager.default.fileExists(atPath: path) else { continue }
            do {
                try FileManager.default.removeItem(atPath: path)
                removed = true
            } catch {
                throw .cannotOpen(path: path, reason: (error as NSError).localizedDescription)
            }
        }
        return removed
    }

    private func read<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws(StoreError) -> Value {
        do {
            return try await pool.read(body)
        } catch {
            throw Self.storeError(error, path: url.path)
        }
    }

    private func write(_ body: @escaping @Sendable (Database) throws -> Void) async throws(StoreError) {
        do {
            try await pool.write(body)
        } catch {
            throw Self.storeError(error, path: url.path)
        }
    }

    private func observe<Value: Equatable & Sendable>(
        _ fetch: @escaping @Sendable (Database) throws -> Value
    ) -> AsyncThrowingStream<Value, any Error> {
        let values = ValueObservation.tracking(fetch).removeDuplicates().values(in: pool)
        let path = url.path
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await value in values { continuation.yield(value) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: Self.storeError(error, path: path))
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    static func storeError(_ error: any Error, path: String) -> StoreError {
        if let error = error as? StoreError { return error }
        guard let error = error as? DatabaseError else {
            return .failed(path: path, reason: (error as NSError).localizedDescription)
        }
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return .damaged(path: path, reason: error.message ?? "not a database")
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_AUTH:
            return .cannotOpen(path: path, reason: error.message ?? "\(error.resultCode)")
        default:
            return .failed(path: path, reason: error.message ?? "\(error.resultCode)")
        }
    }
}
