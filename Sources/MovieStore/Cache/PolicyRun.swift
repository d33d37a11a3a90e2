import Foundation
import Logging
import Movies

/// Plays one ``CachePolicy`` for one value: reads the store, asks the network, saves, and emits
/// the snapshots in the policy's order. When nothing is stored and the network cannot answer,
/// it falls back to a value derived from other stored data, if the caller can derive one.
///
/// The network is asked conditionally with the stored answer's entity tag: a `304` resets the
/// stored answer's age without writing it again, and is reported as ``MovieSnapshot/revalidated``.
struct PolicyRun<Value: Sendable>: Sendable {
    let policy: CachePolicy
    let now: @Sendable () -> Date
    /// What an empty store answers under `cacheThenNetwork` (an empty list); `nil` to emit nothing.
    let emptyValue: Value?
    /// What is asked, for messages (`the top rated movies of 2016`).
    let what: String
    let read: @Sendable () async throws -> StoredValue<Value>?
    /// Asks the network, with the entity tag of the stored answer when there is one.
    let fetch: @Sendable (_ ifNoneMatch: String?) async throws -> Revalidation<Value>
    let save: @Sendable (Value, Date, Freshness) async throws(StoreError) -> Void
    /// Marks the stored answer tagged with the first argument current; `false` when it is gone.
    let revalidate: @Sendable (String, Date, Freshness) async throws(StoreError) -> Bool
    /// A value made from other stored data, never saved, and how many stored records it was made from.
    let derive: (@Sendable () async throws -> (StoredValue<Value>, records: Int)?)?
    /// Where an answer given without the network is logged, at `info`.
    let logger: Logger

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
                emit(try await fresh(validating: stored))
            } catch {
                guard stored == nil, !(error is CancellationError), !Task.isCancelled,
                      let derived = try await derived(networkError: error)
                else { throw error }
                emit(derived)
            }
        case let .cacheElseNetwork(maxAge):
            let stored = try await read()
            if let stored, now().timeIntervalSince(stored.fetchedAt) <= (maxAge ?? stored.maxAge ?? CachePolicy.defaultMaxAge) / .seconds(1) {
                emit(snapshot(of: stored))
            } else {
                emit(try await freshElse(stored))
            }
        case .networkElseCache:
            emit(try await freshElse(try? await read()))
        case .networkOnly:
            emit(try await fresh(validating: try? await read()))
        }
    }

    /// A value from the network, saved unless the server forbids it; the save's failure is
    /// reported, not thrown. With a stored answer that has an entity tag, the network is asked
    /// whether it changed; when it has not, the stored answer is confirmed and returned.
    private func fresh(validating stored: StoredValue<Value>?) async throws -> MovieSnapshot<Value> {
        let entityTag = stored?.entityTag
        let fetchedAt: Date
        switch try await fetch(entityTag) {
        case let .modified(value, freshness):
            fetchedAt = now()
            guard freshness.mayStore else { return MovieSnapshot(value: value, source: .network, fetchedAt: fetchedAt) }
            do {
                try await save(value, fetchedAt, freshness)
                return MovieSnapshot(value: value, source: .network, fetchedAt: fetchedAt)
            } catch {
                return MovieSnapshot(value: value, source: .network, fetchedAt: fetchedAt, storeError: error)
            }
        case let .notModified(freshness):
            // Only a request with a tag can be answered 304 (the client refuses it otherwise).
            guard let stored, let entityTag else { return try await fresh(validating: nil) }
            fetchedAt = now()
            let stillStored: Bool
            do {
                stillStored = try await revalidate(entityTag, fetchedAt, freshness)
            } catch {
                return MovieSnapshot(value: stored.value, source: .network, fetchedAt: fetchedAt, storeError: error, revalidated: true)
            }
            guard stillStored else { return try await fresh(validating: nil) }
            return MovieSnapshot(value: stored.value, source: .network, fetchedAt: fetchedAt, revalidated: true)
        }
    }

    /// A value from the network, or when it fails, the stored value with the failure.
    private func freshElse(_ stored: StoredValue<Value>?) async throws -> MovieSnapshot<Value> {
        do {
            return try await fresh(validating: stored)
        } catch {
            guard !(error is CancellationError), !Task.isCancelled else { throw error }
            if let stored {
                logServed(stored, because: "the network failed")
                return MovieSnapshot(value: stored.value, source: .store, fetchedAt: stored.fetchedAt, networkError: error)
            }
            guard let derived = try await derived(networkError: error) else { throw error }
            return derived
        }
    }

    /// The derived value, when the caller can derive one and there is anything to derive it from.
    private func derived(networkError: (any Error)?) async throws -> MovieSnapshot<Value>? {
        guard let derive, let (derived, records) = try await derive() else { return nil }
        logger.info("\(what): derived from \(records) stored movies, not the server's answer")
        return MovieSnapshot(value: derived.value, source: .derived(records: records), fetchedAt: derived.fetchedAt, networkError: networkError)
    }

    private func snapshot(of stored: StoredValue<Value>) -> MovieSnapshot<Value> {
        logServed(stored, because: nil)
        return MovieSnapshot(value: stored.value, source: .store, fetchedAt: stored.fetchedAt)
    }

    private func logServed(_ stored: StoredValue<Value>, because reason: String?) {
        logger.info("\(what): served from the store, stored \(Int(now().timeIntervalSince(stored.fetchedAt))) s ago\(reason.map { ", because \($0)" } ?? "")")
    }
}
