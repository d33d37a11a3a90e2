import Foundation

/// Plays one ``CachePolicy`` for one value: reads the store, asks the network, saves, and emits
/// the snapshots in the policy's order.
struct SnapshotStream<Value: Sendable>: Sendable {
    let policy: CachePolicy
    let now: @Sendable () -> Date
    /// What an empty store answers under `cacheThenNetwork` (an empty list); `nil` to emit nothing.
    let emptyValue: Value?
    /// What is asked, for messages (`the top rated movies of 2016`).
    let what: String
    let read: @Sendable () async throws -> StoredValue<Value>?
    let fetch: @Sendable () async throws -> Value
    let save: @Sendable (Value, Date) async throws -> Void

    func makeStream() -> AsyncThrowingStream<MovieSnapshot<Value>, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await run { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func run(emit: (MovieSnapshot<Value>) -> Void) async throws {
        switch policy {
        case .cacheOnly:
            guard let stored = try await read() else { throw StoreError.notStored(what) }
            emit(snapshot(of: stored))
        case .cacheThenNetwork:
            if let stored = try await read() {
                emit(snapshot(of: stored))
            } else if let emptyValue {
                emit(MovieSnapshot(value: emptyValue, source: .store, fetchedAt: nil))
            }
            emit(try await fresh())
        case let .cacheElseNetwork(maxAge):
            let stored = try await read()
            if let stored, now().timeIntervalSince(stored.fetchedAt) <= maxAge.seconds {
                emit(snapshot(of: stored))
            } else {
                emit(try await freshElse(stored))
            }
        case .networkElseCache:
            emit(try await freshElse(nil))
        case .networkOnly:
            emit(try await fresh())
        }
    }

    /// A value from the network, saved; the save's failure is reported, not thrown.
    private func fresh() async throws -> MovieSnapshot<Value> {
        let value = try await fetch()
        let fetchedAt = now()
        do {
            try await save(value, fetchedAt)
            return MovieSnapshot(value: value, source: .network, fetchedAt: fetchedAt)
        } catch {
            let storeError = error as? StoreError ?? .failed(path: "", reason: "\(error)")
            return MovieSnapshot(value: value, source: .network, fetchedAt: fetchedAt, storeError: storeError)
        }
    }

    /// A value from the network, or when it fails, the stored value with the failure.
    private func freshElse(_ alreadyRead: StoredValue<Value>?) async throws -> MovieSnapshot<Value> {
        do {
            return try await fresh()
        } catch {
            guard !(error is CancellationError), !Task.isCancelled else { throw error }
            let stored: StoredValue<Value>?
            if let alreadyRead { stored = alreadyRead } else { stored = try await read() }
            guard let stored else { throw error }
            return MovieSnapshot(value: stored.value, source: .store, fetchedAt: stored.fetchedAt, networkError: error)
        }
    }

    private func snapshot(of stored: StoredValue<Value>) -> MovieSnapshot<Value> {
        MovieSnapshot(value: stored.value, source: .store, fetchedAt: stored.fetchedAt)
    }
}

extension Duration {
    var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
