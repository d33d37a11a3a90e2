import CoreMetrics
import NIOConcurrencyHelpers
import NIOCore

/// Every cacheable catalogue answer the server gave, kept encoded until the catalogue changes:
/// the top lists, movies by id, the 404 of an id the catalogue lacks, search and listing pages.
/// The router fills it (``answer(_:compute:)``); the event loop answers from it without the
/// router (``kept(_:now:)``).
///
/// Bounded in bytes: past `capacity`, the least recently used answers go until a tenth is free.
/// The catalogue's version is asked of storage at most once per `recheckInterval`, by one
/// request while the others go on with what is kept (and none from the event loop while a check
/// is due); a new version empties the cache. Without an interval (a catalogue in memory, which
/// never changes), it is asked once. A catalogue event of the live feed (``expire()``) makes the
/// version due at once: until it has been asked, every request is computed afresh.
final class ResponseCache: Sendable {
    /// A kept answer: a body with its tag, or the 404 of a movie the catalogue lacks (its
    /// message, and its body as sent).
    enum Answer: Sendable {
        case found(CacheableBody)
        case notFound(message: String, body: ByteBuffer)

        /// What the answer takes in memory, as near as can be told: its buffers' capacities (not
        /// their lengths), its strings, and a fixed share for the entry, its key and their
        /// allocations (measured: about 300 bytes an entry beyond its buffers on x86_64 Linux).
        var size: Int {
            switch self {
            case let .found(body): body.bytes.capacity + body.entityTag.utf8.count + 320
            case let .notFound(message, body): body.capacity + message.utf8.count + 320
            }
        }

        static func notFound(_ answer: ErrorAnswer) -> Answer {
            .notFound(message: answer.message, body: ByteBuffer(string: answer.json))
        }

    }

    private struct Entry {
        let answer: Answer
        let size: Int
        var lastUse: UInt64
    }

    private struct State {
        var version: Int64?
        var checkedAt: ContinuousClock.Instant?
        var isChecking = false
        /// Counts ``ResponseCache/expire()``: a check that began before one does not count as done.
        var expirations: UInt64 = 0
        var entries: [CacheKey: Entry] = [:]
        var bytes = 0
        var uses: UInt64 = 0
    }

    /// The most bytes the kept answers (and their keys) may take.
    let capacity: Int
    private let storage: any CatalogueStorage
    private let recheckInterval: Duration?
    private let state = NIOLockedValueBox(State())
    private let hits: CoreMetrics.Counter
    private let misses: CoreMetrics.Counter
    private let evictions: CoreMetrics.Counter
    private let bytesGauge: CoreMetrics.Gauge

    init(storage: any CatalogueStorage, capacity: Int, recheckInterval: Duration? = .seconds(1), metrics: ServerMetrics) {
        self.storage = storage
        self.capacity = capacity
        self.recheckInterval = recheckInterval
        (hits, misses, evictions, bytesGauge) = metrics.responseCacheInstruments()
    }

    /// The answer kept for `key`, without waiting: `nil` when none is, or when the catalogue
    /// version is due to be asked again (which only ``answer(_:compute:)`` does).
    func kept(_ key: CacheKey, now: ContinuousClock.Instant) -> Answer? {
        let answer: Answer? = state.withLockedValue { state in
            guard let checkedAt = state.checkedAt else { return nil }
            if let recheckInterval, checkedAt.advanced(by: recheckInterval) <= now { return nil }
            guard let index = state.entries.index(forKey: key) else { return nil }
            state.uses += 1
            state.entries.values[index].lastUse = state.uses
            return state.entries.values[index].answer
        }
        if answer != nil { hits.increment() }
        return answer
    }

    /// The answer for `key`: the kept one, else `compute`'s, kept unless the catalogue changed
    /// while it was computed.
    func answer(_ key: CacheKey, compute: () async throws(StorageError) -> Answer) async throws(StorageError) -> Answer {
        await recheckVersionIfDue()
        if let kept = kept(key, now: .now) { return kept }
        misses.increment()
        let version = state.withLockedValue { $0.version }
        let answer = try await compute()
        keep(answer, for: key, ifVersion: version)
        return answer
    }

    /// Computes and keeps the answers of `keys` now, so that the first requests find them ready.
    func prepare(_ keys: [CacheKey], compute: (CacheKey) async throws(StorageError) -> Answer) async throws(StorageError) {
        for key in keys { _ = try await answer(key) { () async throws(StorageError) in try await compute(key) } }
    }

    private func keep(_ answer: Answer, for key: CacheKey, ifVersion version: Int64?) {
        let size = answer.size + key.size
        guard size <= capacity else { return }
        var evicted = 0
        let bytes: Int = state.withLockedValue { state in
            guard state.version == version else { return state.bytes }
            if let replaced = state.entries[key] { state.bytes -= replaced.size }
            state.uses += 1
            state.entries[key] = Entry(answer: answer, size: size, lastUse: state.uses)
            state.bytes += size
            if state.bytes > capacity {
                evicted = Self.evict(&state, downTo: capacity - capacity / 10)
            }
            return state.bytes
        }
        if evicted > 0 { evictions.increment(by: evicted) }
        bytesGauge.record(bytes)
    }

    /// Removes the least recently used entries until `state` holds at most `target` bytes: finds
    /// the last use to keep from the uses and sizes alone, then keeps the entries used after it.
    private static func evict(_ state: inout State, downTo target: Int) -> Int {
        var uses = state.entries.values.map { (lastUse: $0.lastUse, size: $0.size) }
        uses.sort { $0.lastUse < $1.lastUse }
        var bytes = state.bytes
        var evicted = 0
        for use in uses {
            guard bytes > target else { break }
            bytes -= use.size
            evicted += 1
        }
        guard evicted > 0 else { return 0 }
        let lastEvicted = uses[evicted - 1].lastUse
        state.entries = state.entries.filter { $0.value.lastUse > lastEvicted }
        state.bytes = bytes
        return evicted
    }

    /// The catalogue changed (its live feed said so): the version is asked again by the next
    /// request, and nothing kept is answered until it has been, rather than for up to a
    /// `recheckInterval` more.
    func expire() {
        state.withLockedValue { state in
            state.checkedAt = nil
            state.expirations &+= 1
        }
    }

    private func recheckVersionIfDue() async {
        let now = ContinuousClock.now
        let began: UInt64? = state.withLockedValue { state in
            guard !state.isChecking else { return nil }
            if let checkedAt = state.checkedAt {
                guard let recheckInterval, checkedAt.advanced(by: recheckInterval) <= now else { return nil }
            }
            state.isChecking = true
            return state.expirations
        }
        guard let began else { return }
        let version = try? await storage.catalogVersion()
        let emptied: Bool = state.withLockedValue { state in
            state.isChecking = false
            state.checkedAt = state.expirations == began ? now : nil
            guard let version, version != state.version else { return false }
            state.version = version
            state.entries.removeAll()
            state.bytes = 0
            return true
        }
        if emptied { bytesGauge.record(0) }
    }
}
