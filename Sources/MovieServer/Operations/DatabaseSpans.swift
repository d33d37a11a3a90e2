import Synchronization
import Tracing

/// The database work of a request as a child span of its span, by OpenTelemetry's semantic
/// conventions for databases (`db.system.name`, `db.namespace`, `db.operation.name`,
/// `server.address`, `server.port`). Each database backend holds one and calls it from its one
/// funnel to its database, named by the storage method (`search`, `movie`, `apply_watchlist`).
/// Off until the server that uses the storage traces requests
/// (``ServerStorage/recordDatabaseSpans()``): then a call costs a flag's read.
package final class DatabaseSpans: Sendable {
    private let on = Atomic(false)

    package init() {}

    /// Whether this storage's database work is traced.
    package var isOn: Bool { on.load(ordering: .relaxed) }

    /// Records from now on.
    package func turnOn() {
        on.store(true, ordering: .relaxed)
    }

    /// The database a span names: its system's name in the conventions, and where it is.
    package struct Database: Sendable {
        package var system: String
        package var namespace: String
        package var address: String?
        package var port: Int?

        package init(system: String, namespace: String, address: String? = nil, port: Int? = nil) {
            self.system = system
            self.namespace = namespace
            self.address = address
            self.port = port
        }
    }

    /// Runs `body` in a client span named after `method` (a storage method, as `#function` gives
    /// it) when tracing is on and `body` runs for a traced request: the server's own rounds (the
    /// feed's polling, pruning) would otherwise each be a trace of their own.
    package func around<Result, Failure: Error>(
        _ method: String, in database: @autoclosure () -> Database, _ body: () async throws(Failure) -> Result
    ) async throws(Failure) -> Result {
        guard isOn, let context = ServiceContext.current else { return try await body() }
        let operation = StorageFailures.operationName(method), database = database()
        let span = InstrumentationSystem.tracer.startSpan(operation, context: context, ofKind: .client)
        span.updateAttributes { attributes in
            attributes["db.system.name"] = database.system
            attributes["db.namespace"] = database.namespace
            attributes["db.operation.name"] = operation
            attributes["db.query.summary"] = operation
            if let address = database.address { attributes["server.address"] = address }
            if let port = database.port { attributes["server.port"] = port }
        }
        defer { span.end() }
        do {
            return try await body()
        } catch {
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error))
            throw error
        }
    }
}

extension DatabaseSpans {
    /// Runs a catalogue import as every database call runs (a span of a traced request, a failure
    /// counted in `failures`), without the request's deadline: an import runs as long as its
    /// batches keep being answered. A refusal to replace movies is no database failure.
    package func aroundImport(
        in database: @autoclosure () -> Database, failures: StorageFailures, _ body: () async throws(StorageError) -> CatalogImportSummary
    ) async throws(StorageError) -> CatalogImportSummary {
        try await around("importMovies", in: database()) { () async throws(StorageError) -> CatalogImportSummary in
            do throws(StorageError) {
                return try await body()
            } catch {
                if case .wouldReplaceMovies = error {} else { failures.record(error, in: "importMovies") }
                throw error
            }
        }
    }
}
