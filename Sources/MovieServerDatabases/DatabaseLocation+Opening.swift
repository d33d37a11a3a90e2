import Logging
import MovieContract
import MovieServer
import MovieServerPostgres
import MovieServerSQLite
import SearchPlanning

extension DatabaseLocation {
    /// Opens and migrates the database at this location. `queryTimeout` is how long a request may
    /// wait for the database in all (PostgreSQL's answers, SQLite's lock), and how long an import
    /// may wait between two batches.
    public func open(logger: Logger = Logger(label: "marquee.database"), queryTimeout: Duration = .seconds(5)) async throws(StorageError) -> any CatalogImporting {
        try await open(logger: logger, queryTimeout: queryTimeout, tierReading: .bySize, searchIndexing: .inProcess)
    }

    /// As ``open(logger:queryTimeout:)``, with each relevance of a search read one way
    /// (``TierReading``) and the in-process search index or not, for the tests.
    package func open(logger: Logger, queryTimeout: Duration, tierReading: TierReading, searchIndexing: SearchIndexing) async throws(StorageError) -> any CatalogImporting {
        switch self {
        case let .sqlite(path): try await SQLiteStorage(path: path, queryTimeout: queryTimeout, tierReading: tierReading, searchIndexing: searchIndexing, logger: logger)
        case let .postgres(location):
            try await PostgresStorage(
                location: location, maximumConnections: 20, connectTimeout: .seconds(10), queryTimeout: queryTimeout, logger: logger, tierReading: tierReading, searchIndexing: searchIndexing
            )
        }
    }
}
