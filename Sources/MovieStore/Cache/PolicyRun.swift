import Foundation
import Logging
import Movies

/// Plays one ``CachePolicy`` for one value: reads the store, asks the network, saves, hands
/// each snapshot to the caller in the policy's order, and ends with the call's answer. When
/// nothing is stored and the network cannot answer, it falls back to a value derived from other
/// stored data, if the caller can derive one.
///
/// The network is asked conditionally with the stored answer's entity tag: a `304` resets the
/// stored answer's age without writing it again, and is reported as ``MovieSnapshot/revalidated``.
/// A network failure is never mistaken for a cancellation: the calling task says whether it was
/// cancelled, and then no stored value stands in. Only a failure that means the network is
/// unavailable (``isUnavailable``) lets a stored value stand in; any other (a 4xx) is the answer.
struct PolicyRun<Value: Sendable, NetworkFailure: Error>: Sendable {
    typealias Snapshot = MovieSnapshot<Value, NetworkFailure>
    typealias Failure = CacheFailure<NetworkFailure>

    let policy: CachePolicy
    let now: @Sendable () -> Date
    /// What an empty store answers under `cacheThenNetwork` (an empty list); `nil` to emit nothing.
    let emptyValue: Value?
    /// What is asked, for messages (`the top rated movies of 2016`).
    let what: String
    let read: @Sendable () async throws(StoreError) -> StoredValue<Value>?
    /// Asks the network, with the entity tag of the stored answer when there is one.
    let fetch: @Sendable (_ ifNoneMatch: String?) async throws(NetworkFailure) -> Revalidation<Value>
    let save: @Sendable (Value, Date, Freshness) async throws(StoreError) -> Void
    /// Marks the stored answer tagged with the first argument current; `false` when it is gone.
    let revalidate: @Sendable (String, Date, Freshness) async throws(StoreError) -> Bool
    /// A value made from other stored data, never saved, and how many stored records it was made from.
    let derive: (@Sendable () async throws(StoreError) -> (StoredValue<Value>, records: Int)?)?
    /// Whether a failure of `fetch` means the network could not answer now.
    let isUnavailable: @Sendable (NetworkFailure) -> Bool
    /// Where an answer given without the network is logged, at `info`.
    let logger: Logger

    /// Runs the policy: `emit` sees every snapshot as it is made; the last one is the answer,
    /// except when the network fails after a stored answer was emitted (`cacheThenNetwork`): the
    /// answer is then that stored value with the failure in its ``MovieSnapshot/networkError``.
    func run(emit: (Snapshot) -> Void) async throws(Failure) -> Snapshot {
        switch policy {
        case .cacheOnly:
            let answer: Snapshot
            if let stored = try await readStore() {
                answer = snapshot(of: stored)
            } else if let derived = try await derived(networkError: nil) {
                answer = derived
            } else {
                throw .nothingStored(what: what)
            }
            emit(answer)
            return answer
        case .cacheThenNetwork:
            let stored = try await readStore()
            if let stored {
                emit(snapshot(of: stored))
            } else if let emptyValue {
                emit(MovieSnapshot(value: emptyValue, source: .store, fetchedAt: nil))
            }
            do throws(NetworkFailure) {
                let answer = try await fresh(validating: stored)
                emit(answer)
                return answer
            } catch {
                try checkCancellation()
                guard isUnavailable(error) else { throw .network(error) }
                if let stored {
                    return MovieSnapshot(value: stored.value, source: .store, fetchedAt: stored.fetchedAt, networkError: error)
                }
                guard let derived = try await derived(networkError: error) else { throw .network(error) }
                emit(derived)
                return derived
            }
        case let .cacheElseNetwork(maxAge):
            let stored = try await readStore()
            let answer = if let stored, isFresh(stored, maxAge: maxAge) { snapshot(of: stored) } else { try await freshElse(stored) }
            emit(answer)
            return answer
        case .networkElseCache:
            let answer = try await freshElse(try? await read())
            emit(answer)
            return answer
        case .networkOnly:
            do throws(NetworkFailure) {
                let answer = try await fresh(validating: try? await read())
                emit(answer)
                return answer
            } catch {
                try checkCancellation()
                throw .network(error)
            }
        }
    }

    private func readStore() async throws(Failure) -> StoredValue<Value>? {
        do { return try await read() } catch { throw .store(error) }
    }

    private func checkCancellation() throws(Failure) {
        if Task.isCancelled { throw .cancelled }
    }

    private func isFresh(_ stored: StoredValue<Value>, maxAge: Duration?) -> Bool {
        now().timeIntervalSince(stored.fetchedAt) <= (maxAge ?? stored.maxAge ?? CachePolicy.defaultMaxAge) / .seconds(1)
    }

    /// A value from the network, saved unless the server forbids it; the save's failure is
    /// reported, not thrown. With a stored answer that has an entity tag, the network is asked
    /// whether it changed; when it has not, the stored answer is confirmed and returned.
    private func fresh(validating stored: StoredValue<Value>?) async throws(NetworkFailure) -> Snapshot {
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
    private func freshElse(_ stored: StoredValue<Value>?) async throws(Failure) -> Snapshot {
        do throws(NetworkFailure) {
            return try await fresh(validating: stored)
        } catch {
            try checkCancellation()
            guard isUnavailable(error) else { throw .network(error) }
            if let stored {
                logServed(stored, because: "the network failed")
                return MovieSnapshot(value: stored.value, source: .store, fetchedAt: stored.fetchedAt, networkError: error)
            }
            guard let derived = try await derived(networkError: error) else { throw .network(error) }
            return derived
        }
    }

    /// The derived value, when the caller can derive one and there is anything to derive it from.
    private func derived(networkError: NetworkFailure?) async throws(Failure) -> Snapshot? {
        guard let derive else { return nil }
        let made: (StoredValue<Value>, records: Int)?
        do { made = try await derive() } catch { throw .store(error) }
        guard let (derived, records) = made else { return nil }
        logger.info("\(what): derived from \(records) stored movies, not the server's answer")
        return MovieSnapshot(value: derived.value, source: .derived(records: records), fetchedAt: derived.fetchedAt, networkError: networkError)
    }

    private func snapshot(of stored: StoredValue<Value>) -> Snapshot {
        logServed(stored, because: nil)
        return MovieSnapshot(value: stored.value, source: .store, fetchedAt: stored.fetchedAt)
    }

    private func logServed(_ stored: StoredValue<Value>, because reason: String?) {
        logger.info("\(what): served from the store, stored \(Int(now().timeIntervalSince(stored.fetchedAt))) s ago\(reason.map { ", because \($0)" } ?? "")")
    }
}
