import Logging
import Movies

extension DatabaseLocation {
    /// Opens and migrates the database at this location. `queryTimeout` is how long a request may
    /// wait for the database in all (PostgreSQL's answers, SQLite's lock), and how long an import
    /// may wait between two batches. `tierReading` is for tests: how a search reads each relevance.
    public func open(
        logger: Logger = Logger(label: "marquee.database"), queryTimeout: Duration = .seconds(5), tierReading: TierReading = .bySize
    ) async throws(StorageError) -> any CatalogImporting {
        switch self {
        case let .sqlite(path): try await SQLiteStorage(path: path, queryTimeout: queryTimeout, tierReading: tierReading)
        case let .postgres(location): try await PostgresStorage(location: location, queryTimeout: queryTimeout, logger: logger, tierReading: tierReading)
        }
    }
}
