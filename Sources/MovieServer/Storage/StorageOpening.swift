import Logging

extension DatabaseLocation {
    /// Opens and migrates the database at this location.
    public func open(logger: Logger = Logger(label: "marquee.database")) async throws(StorageError) -> any CatalogImporting {
        switch self {
        case let .sqlite(path): try await SQLiteStorage(path: path)
        case let .postgres(location): try await PostgresStorage(location: location, logger: logger)
        }
    }
}
