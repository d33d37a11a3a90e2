import MovieContract

/// Storage that a catalog can be imported into: a database, not the in-memory catalog.
public protocol CatalogImporting: ServerStorage {
    /// Writes `movies` (already checked) in batches of `batchSize`, all in one transaction: a
    /// failure keeps nothing. `progress` is called after each batch with the movies done so far.
    /// The catalog version changes only when a movie was added or changed.
    /// With `replacement` ``CatalogReplacement/refused``, a movie of `movies` that would replace
    /// another film under its id ends the import with ``StorageError/wouldReplaceMovies(_:)``,
    /// keeping nothing.
    func importMovies(
        _ movies: CatalogBatches,
        batchSize: Int,
        replacement: CatalogReplacement,
        progress: @escaping @Sendable (Int) -> Void
    ) async throws(StorageError) -> CatalogImportSummary
}

extension CatalogImporting {
    /// Imports `movies`, replacing any stored movie of the same id.
    public func importMovies(
        _ movies: [CatalogMovie],
        batchSize: Int,
        progress: @escaping @Sendable (Int) -> Void
    ) async throws(StorageError) -> CatalogImportSummary {
        try await importMovies(CatalogBatches(movies), batchSize: batchSize, replacement: .allowed, progress: progress)
    }

    /// Imports `movies`, held whole.
    public func importMovies(
        _ movies: [CatalogMovie],
        batchSize: Int,
        replacement: CatalogReplacement,
        progress: @escaping @Sendable (Int) -> Void
    ) async throws(StorageError) -> CatalogImportSummary {
        try await importMovies(CatalogBatches(movies), batchSize: batchSize, replacement: replacement, progress: progress)
    }
}
