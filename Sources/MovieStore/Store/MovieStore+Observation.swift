import GRDB
import Movies

extension MovieStore {
    /// The stored answer of `api` to `query` now and after every change to it.
    public func observeList(_ query: ListQuery, api: APIKey) -> AsyncThrowingStream<StoredValue<[Movie]>?, any Error> {
        observeList(query, api: api, didFetch: nil)
    }

    /// The stored movie now and after every change to it.
    public func observeMovie(id: Int, api: APIKey) -> AsyncThrowingStream<StoredValue<Movie>?, any Error> {
        observe(didFetch: nil) { db in try MovieReading.movie(id: id, api: api, in: db) }
    }

    /// Makes the observations of this store see what other processes write.
    ///
    /// SQLite tells one connection nothing of another's commits, so an observation only sees the
    /// writes made through this `MovieStore`. This checks the database's `data_version` every
    /// `interval` and, when another connection has committed, has every observation fetch again
    /// (observations whose value did not change emit nothing). The first check always has them
    /// fetch, so a write made while the relay was starting is not missed. It runs until its task
    /// is cancelled.
    public func relayWritesOfOtherProcesses(every interval: Duration = .milliseconds(250)) async throws {
        var seenVersion: Int?
        while !Task.isCancelled {
            let version = try await dataVersion()
            if version != seenVersion {
                seenVersion = version
                try await pool.write { db in try db.notifyChanges(in: .fullDatabase) }
            }
            try await Task.sleep(for: interval)
        }
    }

    /// The stored list, with `didFetch` called after each of the observation's fetches, before
    /// unchanged values are dropped: how a test knows a write was seen and emitted nothing.
    func observeList(_ query: ListQuery, api: APIKey, didFetch: (@Sendable () -> Void)?) -> AsyncThrowingStream<StoredValue<[Movie]>?, any Error> {
        observe(didFetch: didFetch) { db in try MovieReading.list(query, api: api, in: db) }
    }

    /// Changes only when a connection other than the writer commits.
    private func dataVersion() async throws -> Int {
        try await pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
    }

    private func observe<Value: Equatable & Sendable>(
        didFetch: (@Sendable () -> Void)?,
        _ fetch: @escaping @Sendable (Database) throws -> Value
    ) -> AsyncThrowingStream<Value, any Error> {
        let values = ValueObservation.tracking(fetch)
            .handleEvents(didReceiveValue: { _ in didFetch?() })
            .removeDuplicates()
            .values(in: pool)
        let path = url.path
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await value in values { continuation.yield(value) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: StoreError(error, path: path))
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
