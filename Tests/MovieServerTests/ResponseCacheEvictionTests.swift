import MarqueeTestSupport
import MovieContract
@testable import MovieServer
import NIOConcurrencyHelpers
import NIOCore
import Testing

/// The response cache's eviction order, driven directly: least recently used, where a use is
/// also an answer given on the event loop (``ResponseCache/kept(_:now:)``).
@Suite("Response cache eviction")
struct ResponseCacheEvictionTests {
    static func answer(_ id: Int) -> ResponseCache.Answer {
        .notFound(message: "no movie \(id)", body: ByteBuffer(string: String(repeating: "x", count: 200)))
    }

    static func key(_ id: Int) -> CacheKey { CacheKey(route: .movie, parameter: String(id)) }

    @Test("an answer used on the event loop all along outlives answers kept after it; one never used again does not")
    func leastRecentlyUsedFirst() async throws {
        let entry = Self.answer(0).size + Self.key(0).size
        let cache = ResponseCache(storage: MemoryStorage(catalog: .empty), capacity: entry * 10, recheckInterval: nil, metrics: ServerMetrics())
        for id in [1, 2] {
            _ = try await cache.answer(Self.key(id)) { () async throws(StorageError) in Self.answer(id) }
        }
        for id in 3...40 {
            #expect(cache.kept(Self.key(1), now: .now) != nil, "movie 1, used before movie \(id) is kept")
            _ = try await cache.answer(Self.key(id)) { () async throws(StorageError) in Self.answer(id) }
        }
        #expect(cache.kept(Self.key(1), now: .now) != nil, "the answer used all along is kept")
        #expect(cache.kept(Self.key(2), now: .now) == nil, "the answer never used again was evicted")
        #expect(cache.kept(Self.key(40), now: .now) != nil)
        #expect(cache.kept(Self.key(3), now: .now) == nil)
    }
}

/// A catalogue whose version the test sets, and whose version reads can be held at a gate.
final class SteppedCatalogue: CatalogueStorage {
    let version = NIOLockedValueBox<Int64>(1)
    let gate = NIOLockedValueBox<Gate?>(nil)

    func movie(id: Int) async throws(StorageError) -> CatalogMovie? { nil }
    func topMovies(_ order: TopListOrder, year: Int, limit: Int) async throws(StorageError) -> [CatalogMovie] { [] }
    func catalogVersion() async throws(StorageError) -> Int64 {
        let read = version.withLockedValue { $0 }
        if let gate = gate.withLockedValue({ $0 }) { try? await gate.pass() }
        return read
    }
}

/// TheLiveFeed (MovieServer.docc): a catalogue event empties the kept answers before any stream
/// carries it, so a client it wakes is given the new catalogue, not one kept up to a second more.
@Suite("Response cache expiry by the live feed")
struct ResponseCacheExpiryTests {
    static let key = CacheKey(route: .movie, parameter: "6")

    static func answer(_ text: String) -> ResponseCache.Answer {
        .notFound(message: text, body: ByteBuffer(string: text))
    }

    static func message(_ answer: ResponseCache.Answer?) -> String? {
        guard case let .notFound(message, _)? = answer else { return nil }
        return message
    }

    @Test("within the re-check interval the old answer is kept; after expire() the next request computes and keeps the new one")
    func expireAsksAgain() async throws {
        let storage = SteppedCatalogue()
        let cache = ResponseCache(storage: storage, capacity: 1 << 20, recheckInterval: .seconds(3600), metrics: ServerMetrics())
        _ = try await cache.answer(Self.key) { () async throws(StorageError) in Self.answer("old") }
        storage.version.withLockedValue { $0 = 2 }
        #expect(Self.message(cache.kept(Self.key, now: .now)) == "old", "nothing told the cache yet")

        cache.expire()
        #expect(cache.kept(Self.key, now: .now) == nil, "not answered from the event loop until the version is asked")
        let fresh = try await cache.answer(Self.key) { () async throws(StorageError) in Self.answer("new") }
        #expect(Self.message(fresh) == "new")
        #expect(Self.message(cache.kept(Self.key, now: .now)) == "new")
    }

    @Test("a version read that began before expire() does not count as the check after it")
    func checkInFlightDoesNotCount() async throws {
        let storage = SteppedCatalogue()
        let cache = ResponseCache(storage: storage, capacity: 1 << 20, recheckInterval: .seconds(3600), metrics: ServerMetrics())
        cache.expire()
        let gate = Gate()
        storage.gate.withLockedValue { $0 = gate }
        var arrivals = gate.arrivals.makeAsyncIterator()
        let first = Task { try await cache.answer(Self.key) { () async throws(StorageError) in Self.answer("old") } }
        await arrivals.next()
        cache.expire()
        storage.version.withLockedValue { $0 = 2 }
        await gate.open()
        _ = try await first.value
        #expect(cache.kept(Self.key, now: .now) == nil, "the check that read version 1 is not the one after the expiry")
        storage.gate.withLockedValue { $0 = nil }
        let fresh = try await cache.answer(Self.key) { () async throws(StorageError) in Self.answer("new") }
        #expect(Self.message(fresh) == "new")
        #expect(Self.message(cache.kept(Self.key, now: .now)) == "new")
    }
}
