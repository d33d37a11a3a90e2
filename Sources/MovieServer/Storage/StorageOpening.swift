import Logging

extension DatabaseLocation {
    /// Opens and migrates the database at this location. `queryTimeout` is how long a query made
    /// while serving may wait for PostgreSQL (SQLite waits for its file's lock on its own terms).
    public func open(logger: Logger = Logger(label: "marquee.database"), queryTimeout: Duration = .seconds(5)) async throws(StorageError) -> any CatalogImporting {
        switch self {
        case let .sqlite(path): try await SQLiteStorage(path: path)
        case let .postgres(location): try await PostgresStorage(location: location, queryTimeout: queryTimeout, logger: logger)
        }
    }
}
