/// Where a ``MovieServer`` keeps what outlives a request, one protocol per feature
/// (``CatalogueStorage``, ``SearchStorage``, ``TokenStorage``, ``WatchlistStorage``, ``ShelfStorage``,
/// ``AccountStorage``, ``SignInStorage``, ``DeviceAuthorizationStorage``, ``WebSessionStorage``, ``EventStorage``,
/// ``AttemptStorage``): in memory
/// (the default), in a SQLite file for one instance that survives restarts, or in PostgreSQL for
/// any number of instances. Each part of the server is given the features it uses.
public protocol ServerStorage: CatalogueStorage, SearchStorage, TokenStorage, WatchlistStorage, ShelfStorage, AccountStorage, SignInStorage, DeviceAuthorizationStorage, WebSessionStorage, EventStorage, AttemptStorage {
    /// Names the storage in logs and errors, without any password.
    var summary: String { get }

    /// Where the storage's failed operations are logged and counted (``ServerMetrics`` reports them).
    var failures: StorageFailures { get }

    /// Throws unless the storage answers a query now.
    func checkHealth() async throws(StorageError)

    /// From now on, records each database call made for a traced request as a child span of the
    /// request's span: a setting of this storage, not of the process. Storage with no database
    /// has nothing to record.
    func recordDatabaseSpans()

    /// Releases connections and files; the storage is not used afterwards.
    func close() async
}

extension ServerStorage {
    public func recordDatabaseSpans() {}
}
