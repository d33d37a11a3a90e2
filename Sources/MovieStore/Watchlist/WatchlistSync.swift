import Crypto
import FileLocking
import Foundation
import MovieContract
import Movies

/// Delivers a store's watchlist outbox to a `WatchlistService` and pulls the server's list:
/// the write half of offline-first.
///
/// A push sends the waiting changes of one API oldest first, in batches, each under a key made
/// from its change ids (the same batch is the same key on every retry), and takes a change out
/// of the outbox only once the server's answer names it. Processes that sync one store take
/// turns through a lock file beside it. A process killed at any moment leaves every change
/// either in the outbox (it is sent again; the server applies a change id once) or acknowledged.
public struct WatchlistSync<Service: WatchlistService>: Sendable {
    public let service: Service
    public let store: MovieStore
    public let api: MovieStore.APIKey
    /// Changes per request, from 1 to the server's limit (`WatchlistChangeRecord.batchLimit`).
    public let batchSize: Int
    /// How long a push waits for another process's sync of the same store.
    public let lockTimeout: Duration

    public init(service: Service, store: MovieStore, api: MovieStore.APIKey, batchSize: Int = WatchlistChangeRecord.batchLimit, lockTimeout: Duration = .seconds(60)) {
        self.service = service
        self.store = store
        self.api = api
        self.batchSize = min(max(batchSize, 1), WatchlistChangeRecord.batchLimit)
        self.lockTimeout = lockTimeout
    }

    /// Sends every waiting change. With `waiting` false, a push another process is making now
    /// is left to it (``WatchlistPushReport/busy``).
    public func push(waiting: Bool = true) async throws(WatchlistSyncFailure<Service.Failure>) -> WatchlistPushReport {
        let lock = FileLock(url: Self.lockURL(for: store.url), timeout: waiting ? lockTimeout : .zero)
        var outcome: Result<WatchlistPushReport, WatchlistSyncFailure<Service.Failure>>?
        do {
            try await lock.withLock {
                do throws(WatchlistSyncFailure<Service.Failure>) {
                    outcome = .success(try await pushHoldingLock())
                } catch {
                    outcome = .failure(error)
                }
            }
        } catch {
            if case .timedOut = error as? FileLock.Failure, !waiting { return .busy }
            throw .lock((error as? FileLock.Failure)?.description ?? String(describing: error))
        }
        guard let outcome else { throw .lock("the sync lock was released before the push ran") }
        return try outcome.get()
    }

    /// Pushes every waiting change, then pulls the server's list (conditionally, with the tag of
    /// the one known).
    public func sync() async throws(WatchlistSyncFailure<Service.Failure>) -> WatchlistPushReport {
        let report = try await push(waiting: true)
        try await pull()
        return report
    }

    /// Asks the server for the list and keeps it.
    public func pull() async throws(WatchlistSyncFailure<Service.Failure>) {
        let entityTag = try await storeCall { () async throws(StoreError) in try await store.watchlistEntityTag(api: api) }
        let asked = try await storeCall { () async throws(StoreError) in try await store.watchlistLogPosition(api: api) }
        let answer: Revalidation<WatchlistSnapshot>
        do {
            answer = try await service.watchlist(ifNoneMatch: entityTag)
        } catch {
            try await noteMissingWatchlist(error)
            throw .network(error)
        }
        switch answer {
        case let .modified(snapshot, freshness):
            try await storeCall { () async throws(StoreError) in
                try await store.replaceWatchlist(
                    snapshot.items, removals: snapshot.removals, entityTag: freshness.entityTag, api: api, askedAtLogPosition: asked,
                    feedPosition: snapshot.feedPosition
                )
            }
        case .notModified:
            try await storeCall { () async throws(StoreError) in try await store.confirmWatchlist(api: api) }
        }
    }

    private func pushHoldingLock() async throws(WatchlistSyncFailure<Service.Failure>) -> WatchlistPushReport {
        var report = WatchlistPushReport.sent([:], unknownMovies: [])
        while true {
            let batch = try await storeCall { () async throws(StoreError) in try await store.pendingWatchlistChanges(api: api, limit: batchSize) }
            guard !batch.isEmpty else { return report }
            let answers: [WatchlistChangeResult]
            do {
                answers = try await service.apply(batch, key: Self.key(of: batch))
            } catch {
                try await noteMissingWatchlist(error)
                throw .network(error, sentBefore: report)
            }
            // Each change is kept at the time the server orders it by, which the server may have
            // brought back from a clock too far ahead: the version the feed and the list carry.
            let results = zip(batch, answers).map { change, answer in
                (answer.orderedAt.map { change.ordered(at: $0) } ?? change, answer.outcome)
            }
            // A repeat whose first answer was lost was taken then, at the time the server names, as
            // what it became then: kept as lost when it lost, else as an applied change is, unless
            // the store knows a newer version of the movie, so that this device's next change of
            // the movie is stamped after it. An older server does not say what it became.
            let taken = zip(results, answers).map { result, answer in
                (result.0, answer.outcome == .repeated && answer.orderedAt != nil ? answer.firstOutcome ?? .applied : result.1)
            }
            try await storeCall { () async throws(StoreError) in try await store.acknowledgeWatchlistChanges(taken, api: api) }
            report.add(results)
        }
    }

    private func noteMissingWatchlist(_ error: Service.Failure) async throws(WatchlistSyncFailure<Service.Failure>) {
        guard service.meansNoWatchlist(error) else { return }
        try await storeCall { () async throws(StoreError) in try await store.markWatchlistUnsupported(api: api) }
        throw .noWatchlist
    }

    private func storeCall<Value>(_ body: () async throws(StoreError) -> Value) async throws(WatchlistSyncFailure<Service.Failure>) -> Value {
        do { return try await body() } catch { throw .store(error) }
    }

    /// The idempotency key of a batch: a digest of its change ids, so that the same batch sent
    /// again, by this process or the next, has the same key.
    static func key(of batch: [WatchlistChangeRecord]) -> String {
        var hash = SHA256()
        for change in batch { hash.update(data: Data((change.id + "\n").utf8)) }
        return "batch-" + hash.finalize().prefix(16).map { String(format: "%02x", $0) }.joined()
    }

    /// The lock file that processes syncing the store at `url` take turns through.
    public static func lockURL(for url: URL) -> URL {
        StoreSyncLock.url(for: url)
    }
}

/// What a push did: how many changes the server took in each outcome, or that another process
/// was pushing.
public enum WatchlistPushReport: Sendable, Hashable {
    case sent([WatchlistChangeOutcome: Int], unknownMovies: [Int])
    case busy

    /// How many changes left the outbox.
    public var delivered: Int {
        guard case let .sent(counts, _) = self else { return 0 }
        return counts.values.reduce(0, +)
    }

    mutating func add(_ results: [(WatchlistChangeRecord, WatchlistChangeOutcome)]) {
        guard case .sent(var counts, var unknown) = self else { return }
        for (change, outcome) in results {
            counts[outcome, default: 0] += 1
            if outcome == .unknownMovie { unknown.append(change.movieID) }
        }
        self = .sent(counts, unknownMovies: unknown)
    }
}

/// Why a watchlist sync stopped. Changes not acknowledged stay in the outbox.
public enum WatchlistSyncFailure<NetworkFailure: Error>: Error {
    /// The server could not be reached or refused; `sentBefore` is what was delivered first.
    case network(NetworkFailure, sentBefore: WatchlistPushReport = .sent([:], unknownMovies: []))
    /// The server keeps no watchlist: the list lives on this machine.
    case noWatchlist
    case store(StoreError)
    case lock(String)
}
