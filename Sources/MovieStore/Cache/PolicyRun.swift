import Foundation

/// Plays one ``CachePolicy`` for one value: reads the store, asks the network, saves, and emits
/// the snapshots in the policy's order. When nothing is stored and the network cannot answer,
/// it falls back to a value derived from other stored data, if the caller can derive one.
struct PolicyRun<Value: Sendable>: Sendable {
    let policy: CachePolicy
    let now: @Sendable () -> Date
    /// What an empty store answers under `cacheThenNetwork` (an empty list); `nil` to emit nothing.
    let emptyValue: Value?
    /// What is asked, for messages (`the top rated movies of 2016`).
    let what: String
    let read: @Sendable () async throws -> StoredValue<Value>?
    let fetch: @Sendable () async throws -> Value
    let save: @Sendable (Value, Date) async throws(StoreError) -> Void
    /// A value made from other stored data, never saved, and how many stored records it was made from.
    let derive: (@Sendable () async throws -> (StoredValue<Value>, records: Int)?)?

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
            if let stored = try await read() {
                emit(snapshot(of: stored))
            } else if let derived = try await derived(networkError: nil) {
                emit(derived)
            } else {
                throw StoreError.notStored(what)
            }
        case .cacheThenNetwork:
            let stored = try await read()
            if let stored {
                emit(snapshot(of: stored))
            } else if let emptyValue {
                emit(MovieSnapshot(value: emptyValue, source: .store, fetchedAt: nil))
            }
            do {
                emit(try await fresh())
            } catch {
                guard stored == nil, !(error is CancellationError), !Task.isCancelled,
                      let derived = try await derived(networkError: error)
                else { throw error }
                emit(derived)
            }
        case let .cacheElseNetwork(maxAge):
            let stored = try await read()
            if let stored, now().timeIntervalSince(stored.fetchedAt) <= maxAge / .seconds(1) {
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
            return MovieSnapshot(value: value, source: .network, fetchedAt: fetchedAt, storeError: error)
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
            if let stored {
                return MovieSnapshot(value: stored.value, source: .store, fetchedAt: stored.fetchedAt, networkError: error)
            }
            guard let derived = try await derived(networkError: error) else { throw error }
            return derived
        }
    }

    /// The derived value, when the caller can derive one and there is anything to derive it from.
    private func derived(networkError: (any Error)?) async throws -> MovieSnapshot<Value>? {
        guard let derive, let (derived, records) = try await derive() else { return nil }
        return MovieSnapshot(value: derived.value, source: .derived(records: records), fetchedAt: derived.fetchedAt, networkError: networkError)
    }

    private func snapshot(of stored: StoredValue<Value>) -> MovieSnapshot<Value> {
        MovieSnapshot(value: stored.value, source: .store, fetchedAt: stored.fetchedAt)
    }
}
