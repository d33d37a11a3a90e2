import Foundation
import Logging
import MovieContract
import MovieServer
import NIOConcurrencyHelpers
import NIOCore
import NIOSSL
import PostgresNIO
import SearchPlanning

/// Server storage in PostgreSQL (through postgres-nio's connection pool): one catalog and one
/// set of refresh tokens shared by every instance of the server that names the same database.
public final class PostgresStorage: CatalogImporting, Sendable {
    public let location: PostgresLocation
    let client: PostgresClient
    private let runTask: Task<Void, Never>
    let logger: Logger
    /// How long one request may wait for the database in all, and an import or migration between two answers.
    let queryTimeout: Duration
    /// How long getting a connection may take, before the first query of an import or migration.
    let connectTimeout: Duration
    /// The feed's listener, when one was asked for (``onFeedNotification(_:)``).
    let feedListener = NIOLockedValueBox<Task<Void, Never>?>(nil)
    let tierReading: TierReading
    /// The in-process search index, when searches use one.
    let searchIndex: SearchIndexKeeper?
    public let failures: StorageFailures
    /// Its database calls as spans of traced requests, once the server asks (``recordDatabaseSpans()``).
    let spans = DatabaseSpans()

    /// Connects, waits up to `connectTimeout` for the database to answer, and migrates it.
    public convenience init(
        location: PostgresLocation,
        maximumConnections: Int = 20,
        connectTimeout: Duration = .seconds(10),
        queryTimeout: Duration = .seconds(5),
        logger: Logger = Logger(label: "marquee.database")
    ) async throws(StorageError) {
        try await self.init(
            location: location, maximumConnections: maximumConnections, connectTimeout: connectTimeout,
            queryTimeout: queryTimeout, logger: logger, tierReading: .bySize, searchIndexing: .inProcess
        )
    }

    /// As ``init(location:maximumConnections:connectTimeout:queryTimeout:logger:)``, with each
    /// relevance of a search read one way (``TierReading``), for the tests.
    package init(
        location: PostgresLocation,
        maximumConnections: Int,
        connectTimeout: Duration,
        queryTimeout: Duration,
        logger: Logger,
        tierReading: TierReading,
        searchIndexing: SearchIndexing
    ) async throws(StorageError) {
        self.location = location
        self.tierReading = tierReading
        self.logger = logger
        let failures = StorageFailures(logger: logger)
        self.failures = failures
        self.queryTimeout = queryTimeout
        self.connectTimeout = connectTimeout
        let configuration = Self.poolConfiguration(for: location, maximumConnections: maximumConnections, connectTimeout: connectTimeout)
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        runTask = Task { await client.run() }
        searchIndex = searchIndexing == .off ? nil : SearchIndexKeeper(
            logger: logger, snapshots: PostgresSearchIndexSnapshots.store(for: client, logger: logger).counted(in: failures) { PostgresErrorText.describe($0) }
        ) {
            try await PostgresSearchEntries.read(client, logger: logger)
        }
        let description = location.description
        do {
            try await Self.checkConnection(to: location, within: connectTimeout, description: description, logger: logger)
            try await PostgresSchema.migrate(client, location: description, idleLimit: max(queryTimeout, Self.migrationIdleLimit), logger: logger)
        } catch {
            runTask.cancel()
            throw error
        }
    }

    /// How the pool reaches `location`.
    private static func poolConfiguration(
        for location: PostgresLocation, maximumConnections: Int, connectTimeout: Duration
    ) -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        let tls: PostgresClient.Configuration.TLS =
            switch location.tls {
            case .disable: .disable
            case .prefer: .prefer(.makeClientConfiguration())
            case .require: .require(.makeClientConfiguration())
            }
        if let folder = location.socketFolder {
            configuration = .init(
                unixSocketPath: "\(folder)/.s.PGSQL.\(location.port)", username: location.username,
                password: location.password, database: location.database
            )
        } else {
            configuration = .init(
                host: location.host, port: location.port, username: location.username,
                password: location.password, database: location.database, tls: tls
            )
        }
        configuration.options.maximumConnections = maximumConnections
        configuration.options.connectTimeout = connectTimeout
        configuration.options.additionalStartupParameters = [("application_name", PostgresSchema.sessionName)]
        return configuration
    }

    /// Brings the database at `location` to the migration step `last` and no further, as an
    /// older Marquee left it: for the tests of the steps after it.
    package static func migrate(_ location: PostgresLocation, through last: String, logger: Logger) async throws(StorageError) {
        let client = PostgresClient(configuration: poolConfiguration(for: location, maximumConnections: 1, connectTimeout: .seconds(10)), backgroundLogger: logger)
        let running = Task { await client.run() }
        defer { running.cancel() }
        try await PostgresSchema.migrate(client, location: location.description, idleLimit: .seconds(60), logger: logger, through: last)
    }

    /// How long a migration may go without an answer from the database before it is given up:
    /// long, since other instances may be migrating and a busy machine may be slow to connect;
    /// it exists so that a database that stopped answering does not hold the start forever.
    static let migrationIdleLimit: Duration = .seconds(60)

    let watchlistPurge = WatchlistPurgeSchedule()
    let shelfPurge = WatchlistPurgeSchedule()

    public func recordDatabaseSpans() {
        spans.turnOn()
    }

    public var summary: String { location.description }

    public func checkHealth() async throws(StorageError) {
        try await run("healthCheck") { client in try await client.query("SELECT 1", logger: self.logger) }
    }

    /// Stops the pool, waiting at most a few seconds for connections that no longer answer.
    public func close() async {
        await searchIndex?.close()
        feedListener.withLockedValue { $0?.cancel() }
        runTask.cancel()
        let runTask = runTask
        _ = try? await Deadline.run(within: .seconds(3)) { await runTask.value }
    }

    /// Writes the catalog in one transaction. Each batch (and the commit) must be answered within
    /// the query timeout: when the database stops answering mid-import (it was stopped, the network
    /// broke), the import ends with ``StorageError/connectionLost(_:reason:)`` instead of waiting
    /// forever, and the database rolls back what it never committed.
    public func importMovies(
        _ movies: CatalogBatches,
        batchSize: Int,
        replacement: CatalogReplacement,
        progress: @escaping @Sendable (Int) -> Void
    ) async throws(StorageError) -> CatalogImportSummary {
        try await spans.aroundImport(in: spanDatabase, failures: failures) { () async throws(StorageError) -> CatalogImportSummary in
            let client = client
            let logger = logger
            let committing = NIOLockedValueBox(false)
            let indexesSearch = searchIndex != nil
            do {
                return try await Deadline.run(idleLimit: queryTimeout, startLimit: connectTimeout) { alive in
                    try await client.withTransaction(logger: logger) { connection in
                        var summary = CatalogImportSummary()
                        let writer = PostgresCatalogWriter(connection: connection, logger: logger)
                        var done = 0
                        for batch in movies.batches(of: batchSize) {
                            let existing = try await PostgresCatalogQueries.movies(connection, ids: batch.map(\.id), logger: logger)
                            let plan = try CatalogImportPlan(batch: batch, existing: existing, replacement: replacement)
                            try await writer.write(plan.moviesToWrite, replacingCastsOf: plan.changedIDs)
                            summary.add(plan)
                            done += batch.count
                            alive()
                            progress(done)
                        }
                        movies.release()
                        if summary.added + summary.changed > 0 {
                            let version = try await connection.allRows("UPDATE catalog_state SET version = version + 1 RETURNING version", logger: logger).first?.decode(Int64.self) ?? 0
                            try await PostgresFeed.append([.catalog(version: version)], now: Date(), on: connection, logger: logger)
                            // Fresh statistics for the new rows, and the GIN indexes' pending entries
                            // merged, which every search would otherwise read through.
                            try await connection.query("ANALYZE movie", logger: logger)
                            try await connection.query("SELECT gin_clean_pending_list('movie_title_tsv'), gin_clean_pending_list('movie_all_tsv')", logger: logger)
                            alive()
                            if indexesSearch {
                                try await PostgresSearchIndexSnapshots.writeForImport(version: version, on: connection, logger: logger, alive: alive)
                            } else {
                                try await connection.query("DELETE FROM search_index_snapshot", logger: logger)
                            }
                        }
                        alive()
                        committing.withLockedValue { $0 = true }
                        return summary
                    }
                }
            } catch is Deadline.Exceeded {
                let outcome = committing.withLockedValue { $0 }
                    ? "the commit was not confirmed; importing the same file again is safe"
                    : "nothing was committed, so nothing was imported"
                throw .connectionLost(summary, reason: "no answer within \(queryTimeout.secondsText); \(outcome)")
            } catch where PostgresErrorText.isConnectionLoss(error) {
                let outcome = committing.withLockedValue { $0 }
                    ? "the commit was not confirmed; importing the same file again is safe"
                    : "nothing was committed, so nothing was imported"
                throw .connectionLost(summary, reason: "\(PostgresErrorText.describe(error)); \(outcome)")
            } catch {
                throw Self.storageError(error, location: summary)
            }
    
        }
    }

    /// Runs `body` with the pool, giving up after ``queryTimeout`` or at the request's deadline,
    /// whichever comes first: while the database is gone, the pool waits for a connection, and a
    /// request must get its 503 long before the client gives up.
    @discardableResult
    func run<T: Sendable>(_ method: String = #function, _ body: @escaping @Sendable (PostgresClient) async throws -> T) async throws(StorageError) -> T {
        return try await spans.around(method, in: spanDatabase) { () async throws(StorageError) -> T in try await untracedRun(method, body) }
    }

    /// The database, as a span of database work names it.
    private var spanDatabase: DatabaseSpans.Database {
        DatabaseSpans.Database(system: "postgresql", namespace: location.database, address: location.host, port: location.port)
    }

    private func untracedRun<T: Sendable>(_ method: String, _ body: @escaping @Sendable (PostgresClient) async throws -> T) async throws(StorageError) -> T {
        let client = client
        let limit = RequestDeadline.remaining(limit: queryTimeout)
        let error: StorageError
        do {
            return try await Deadline.run(within: limit) { try await body(client) }
        } catch is Deadline.Exceeded {
            error = .unreachable(summary, reason: "no answer within \(queryTimeout.secondsText) for this request")
        } catch let other {
            error = Self.storageError(other, location: summary)
        }
        failures.record(error, in: method)
        throw error
    }

    private static func storageError(_ error: any Error, location: String) -> StorageError {
        if let error = PostgresErrorText.unwrapped(error) as? StorageError { return error }
        if PostgresErrorText.isConnectionFailure(error) { return .unreachable(location, reason: PostgresErrorText.describe(error)) }
        return .queryFailed(PostgresErrorText.describe(error))
    }

    /// Opens one connection outside the pool and closes it: the pool retries a failed connection
    /// quietly, and a wrong database name or password must be said at once. A server still
    /// starting up (or recovering) is asked again, every quarter of a second, for up to `timeout`
    /// in all: a service started beside its database would otherwise stop at once.
    private static func checkConnection(
        to location: PostgresLocation, within timeout: Duration, description: String, logger: Logger
    ) async throws(StorageError) {
        let configuration = try connectionConfiguration(for: location, within: timeout, description: description)
        let deadline = ContinuousClock.now + timeout
        var waiting = false
        while true {
            do {
                let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
                try await connection.close()
                if waiting { logger.notice("the database is ready", metadata: ["database": "\(description)"]) }
                return
            } catch {
                guard PostgresErrorText.isStartingUp(error), ContinuousClock.now + Self.startupRetry < deadline else {
                    throw .unreachable(description, reason: PostgresErrorText.describe(error))
                }
                if !waiting {
                    logger.notice("the database is starting up; waiting for it", metadata: ["database": "\(description)", "within": "\(timeout.secondsText)"])
                    waiting = true
                }
                try? await Task.sleep(for: Self.startupRetry)
            }
        }
    }

    /// How long to wait before asking a database that is starting up again.
    static let startupRetry = Duration.milliseconds(250)

    /// How one connection of its own (not the pool's) reaches `location`.
    static func connectionConfiguration(
        for location: PostgresLocation, within timeout: Duration, description: String
    ) throws(StorageError) -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration =
            if let folder = location.socketFolder {
                .init(unixSocketPath: "\(folder)/.s.PGSQL.\(location.port)", username: location.username, password: location.password, database: location.database)
            } else {
                .init(host: location.host, port: location.port, username: location.username, password: location.password, database: location.database, tls: .disable)
            }
        configuration.options.connectTimeout = .nanoseconds(Int64(timeout / .nanoseconds(1)))
        configuration.options.additionalStartupParameters = [("application_name", PostgresSchema.sessionName)]
        if location.socketFolder == nil, location.tls != .disable {
            do {
                configuration.tls = location.tls == .require ? .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
                    : .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            } catch {
                throw .unreachable(description, reason: "TLS cannot be set up: \(error)")
            }
        }
        return configuration
    }
}
