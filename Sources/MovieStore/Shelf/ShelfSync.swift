import Crypto
import FileLocking
import Foundation
import MovieContract
import Movies

/// Delivers a store's shelf outbox of one kind to a `ShelfService` and pulls the server's
/// records of it, as ``WatchlistSync`` does for the watchlist: batches keyed by their change ids,
/// a change taken out of the outbox only once the server's answer names it, processes that sync
/// one store taking turns through the watchlist's lock file.
public struct ShelfSync<Service: ShelfService>: Sendable {
    public let service: Service
    public let store: MovieStore
    public let api: MovieStore.APIKey
    public let batchSize: Int
    public let lockTimeout: Duration

    public init(service: Service, store: MovieStore, api: MovieStore.APIKey, batchSize: Int = WatchlistChangeRecord.batchLimit, lockTimeout: Duration = .seconds(60)) {
        self.service = service
        self.store = store
        self.api = api
        self.batchSize = min(max(batchSize, 1), WatchlistChangeRecord.batchLimit)
        self.lockTimeout = lockTimeout
    }

    /// Sends every waiting change of `kind`; what became of them, by outcome.
    public func push<Kind: ShelfKind>(_ kind: Kind.Type) async throws(ShelfSyncFailure<Service.Failure>) -> ShelfPushReport {
        let lock = FileLock(url: StoreSyncLock.url(for: store.url), timeout: lockTimeout)
        var outcome: Result<ShelfPushReport, ShelfSyncFailure<Service.Failure>>?
        do {
            try await lock.withLock {
                do throws(ShelfSyncFailure<Service.Failure>) {
                    outcome = .success(try await pushHoldingLock(kind))
                } catch {
                    outcome = .failure(error)
                }
            }
        } catch {
            throw .lock((error as? FileLock.Failure)?.description ?? "the sync lock could not be taken")
        }
        guard let outcome else { throw .lock("the sync lock was released before the push ran") }
        return try outcome.get()
    }

    /// Pushes every waiting change of `kind`, then pulls the server's records of it.
    public func sync<Kind: ShelfKind>(_ kind: Kind.Type) async throws(ShelfSyncFailure<Service.Failure>) -> ShelfPushReport {
        let report = try await push(kind)
        try await pull(kind)
        return report
    }

    /// Asks the server for the records of `kind` and keeps them.
    public func pull<Kind: ShelfKind>(_ kind: Kind.Type) async throws(ShelfSyncFailure<Service.Failure>) {
        let askedAt = Date()
        let snapshot: ShelfSnapshot
        do { snapshot = try await service.records(kind) } catch { throw .network(error) }
        do { try await store.replaceShelf(snapshot, kind: Kind.name, api: api, askedAt: askedAt) } catch { throw .store(error) }
    }

    private func pushHoldingLock<Kind: ShelfKind>(_ kind: Kind.Type) async throws(ShelfSyncFailure<Service.Failure>) -> ShelfPushReport {
        var report = ShelfPushReport()
        while true {
            let batch: [ShelfChangeRecord]
            do { batch = try await store.pendingShelfChanges(kind: Kind.name, api: api, limit: batchSize) } catch { throw .store(error) }
            guard !batch.isEmpty else { return report }
            let answers: [WatchlistChangeResult]
            do { answers = try await service.apply(batch, of: kind, key: Self.key(of: batch)) } catch { throw .network(error, sentBefore: report) }
            // Each change is kept at the time the server orders it by; a repeat whose first answer
            // was lost is kept as what it became then.
            let taken = zip(batch, answers).map { change, answer in
                let outcome = answer.outcome == .repeated && answer.orderedAt != nil ? answer.firstOutcome ?? .applied : answer.outcome
                return (answer.orderedAt.map { change.ordered(at: $0) } ?? change, applied: outcome == .applied)
            }
            do { try await store.acknowledgeShelfChanges(taken, api: api) } catch { throw .store(error) }
            for (change, answer) in zip(batch, answers) { report.add(change, answer.outcome) }
        }
    }

    /// The idempotency key of a batch: a digest of its change ids, the same on every retry.
    static func key(of batch: [ShelfChangeRecord]) -> String {
        var hash = SHA256()
        for change in batch { hash.update(data: Data((change.id + "\n").utf8)) }
        return "shelf-" + hash.finalize().prefix(16).map { String(format: "%02x", $0) }.joined()
    }
}

/// What a shelf push did: how many changes the server took in each outcome, and the changes
/// about a movie it does not have.
public struct ShelfPushReport: Sendable, Hashable {
    public var counts: [WatchlistChangeOutcome: Int] = [:]
    public var unknownMovieChanges: [ShelfChangeRecord] = []
    /// The changes the server refused because their list is not in force (deleted elsewhere).
    public var unknownListChanges: [ShelfChangeRecord] = []

    public init() {}

    public var delivered: Int { counts.values.reduce(0, +) }

    /// The movies of the changes the server refused as unknown, as `Kind` names them.
    public func unknownMovies<Kind: ShelfKind>(of kind: Kind.Type) -> [Int] {
        unknownMovieChanges.compactMap { change in
            change.value.flatMap(Kind.value(ofText:)).flatMap { Kind.movieID(key: change.key, value: $0) }
        }
    }

    mutating func add(_ change: ShelfChangeRecord, _ outcome: WatchlistChangeOutcome) {
        counts[outcome, default: 0] += 1
        if outcome == .unknownMovie { unknownMovieChanges.append(change) }
        if outcome == .unknownList { unknownListChanges.append(change) }
    }
}

/// Why a shelf sync stopped. Changes not acknowledged stay in the outbox.
public enum ShelfSyncFailure<NetworkFailure: Error>: Error {
    case network(NetworkFailure, sentBefore: ShelfPushReport = ShelfPushReport())
    case store(StoreError)
    case lock(String)
}
