import Foundation
import MarqueeTestSupport
import Movies
import MovieStore
import Testing

/// Each policy against a base that succeeds, fails, and is slow: what is emitted, in what order,
/// from where, and what the store holds afterwards.
@Suite("Cache policies")
struct CachePolicyTests {
    let clock = ManualClock()
    let old = Array(Fixtures.ten.prefix(3))
    let new = Fixtures.ten

    func service(_ base: ScriptedMovieService, store: MovieStore) -> CachedMovieService<ScriptedMovieService> {
        CachedMovieService(base: base, store: store, api: Fixtures.api, now: clock.now)
    }

    func storeHoldingOld() async throws -> MovieStore {
        let store = try makeStore()
        try await store.saveList(old, for: ListQuery(.topRated, year: 2016), api: Fixtures.api, fetchedAt: clock.now())
        return store
    }

    @Test("cacheThenNetwork on an empty store: an empty stored answer, then the network's")
    func cacheThenNetworkEmpty() async throws {
        let store = try makeStore()
        let (snapshots, error) = await service(ScriptedMovieService(.answer(new)), store: store)
            .snapshots(.topRated, year: 2016, policy: .cacheThenNetwork).collect()
        #expect(error == nil)
        #expect(snapshots.map(\.source) == [.store, .network])
        #expect(snapshots.map(\.value.count) == [0, 10])
        #expect(snapshots[0].fetchedAt == nil)
        #expect(try await store.list(ListQuery(.topRated, year: 2016), api: Fixtures.api)?.value == new)
    }

    @Test("cacheThenNetwork: the stored answer, then the network's, which replaces it")
    func cacheThenNetworkStored() async throws {
        let store = try await storeHoldingOld()
        clock.advance(by: 60)
        let (snapshots, error) = await service(ScriptedMovieService(.answer(new)), store: store)
            .snapshots(.topRated, year: 2016, policy: .cacheThenNetwork).collect()
        #expect(error == nil)
        #expect(snapshots.map(\.value) == [old, new])
        #expect(snapshots.map(\.source) == [.store, .network])
        #expect(snapshots[1].fetchedAt == clock.now())
    }

    @Test("cacheThenNetwork with the network down: the stored answer, then the error; the store is unchanged")
    func cacheThenNetworkFailing() async throws {
        let store = try await storeHoldingOld()
        let (snapshots, error) = await service(ScriptedMovieService(.fail(TestFailure.offline)), store: store)
            .snapshots(.topRated, year: 2016, policy: .cacheThenNetwork).collect()
        #expect(snapshots.map(\.value) == [old])
        #expect(error as? TestFailure == .offline)
        #expect(try await store.list(ListQuery(.topRated, year: 2016), api: Fixtures.api)?.value == old)
    }

    @Test("cacheThenNetwork with a slow network: the stored answer arrives before the network answers")
    func cacheThenNetworkSlow() async throws {
        let store = try await storeHoldingOld()
        let gate = Gate()
        let base = ScriptedMovieService(.slow(new, gate))
        let (snapshots, shown) = AsyncStream<MovieSnapshot<[Movie], TestFailure>>.makeStream()
        let cache = service(base, store: store)
        let call = Task {
            defer { shown.finish() }
            return try await cache.movies(.topRated, year: 2016, policy: .cacheThenNetwork) { shown.yield($0) }
        }
        var iterator = snapshots.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first?.source == .store)
        #expect(first?.value == old)
        gate.open()
        let second = await iterator.next()
        #expect(second?.source == .network)
        #expect(second?.value == new)
        #expect(await iterator.next() == nil)
        #expect(try await call.value.source == .network)
    }

    @Test("cacheElseNetwork: a young enough stored answer, without asking the network")
    func cacheElseNetworkFresh() async throws {
        let store = try await storeHoldingOld()
        clock.advance(by: 299)
        let base = ScriptedMovieService(.answer(new))
        let snapshot = try await service(base, store: store).movies(.topRated, year: 2016, policy: .cacheElseNetwork(maxAge: .seconds(300)))
        #expect(snapshot.source == .store)
        #expect(snapshot.value == old)
        #expect(base.callCount == 0)
    }

    @Test("cacheElseNetwork: a stored answer too old is replaced by the network's; with the network down, it is returned stale")
    func cacheElseNetworkOld() async throws {
        let store = try await storeHoldingOld()
        clock.advance(by: 301)
        let failing = ScriptedMovieService(.fail(TestFailure.offline))
        let stale = try await service(failing, store: store).movies(.topRated, year: 2016, policy: .cacheElseNetwork(maxAge: .seconds(300)))
        #expect(stale.isStale)
        #expect(stale.value == old)
        #expect(stale.networkError == .offline)

        let fresh = try await service(ScriptedMovieService(.answer(new)), store: store)
            .movies(.topRated, year: 2016, policy: .cacheElseNetwork(maxAge: .seconds(300)))
        #expect(fresh.source == .network)
        #expect(fresh.value == new)
    }

    @Test("networkElseCache: the network's answer when it works")
    func networkElseCacheWorking() async throws {
        let store = try await storeHoldingOld()
        let (snapshots, error) = await service(ScriptedMovieService(.answer(new)), store: store)
            .snapshots(.topRated, year: 2016, policy: .networkElseCache).collect()
        #expect(error == nil)
        #expect(snapshots.map(\.source) == [.network])
        #expect(snapshots.map(\.value) == [new])
    }

    @Test("networkElseCache: the stored answer marked stale, with the error, when the network fails")
    func networkElseCacheFailing() async throws {
        let store = try await storeHoldingOld()
        let storedAt = clock.now()
        clock.advance(by: 180)
        let (snapshots, error) = await service(ScriptedMovieService(.fail(TestFailure.offline)), store: store)
            .snapshots(.topRated, year: 2016, policy: .networkElseCache).collect()
        #expect(error == nil)
        #expect(snapshots.count == 1)
        #expect(snapshots.first?.isStale == true)
        #expect(snapshots.first?.fetchedAt == storedAt)
        #expect(snapshots.first?.networkError == .offline)
    }

    @Test("networkElseCache with nothing stored: the network's error")
    func networkElseCacheNothingStored() async throws {
        await #expect(throws: CacheFailure<TestFailure>.network(.offline)) {
            try await service(ScriptedMovieService(.fail(TestFailure.offline)), store: try makeStore())
                .movies(.topRated, year: 2016, policy: .networkElseCache)
        }
    }

    @Test("networkOnly: a network failure fails the call even when something is stored; success is stored")
    func networkOnly() async throws {
        let store = try await storeHoldingOld()
        await #expect(throws: CacheFailure<TestFailure>.network(.offline)) {
            try await service(ScriptedMovieService(.fail(TestFailure.offline)), store: store).movies(.topRated, year: 2016, policy: .networkOnly)
        }
        let snapshot = try await service(ScriptedMovieService(.answer(new)), store: store).movies(.topRated, year: 2016, policy: .networkOnly)
        #expect(snapshot.source == .network)
        #expect(try await store.list(ListQuery(.topRated, year: 2016), api: Fixtures.api)?.value == new)
    }

    @Test("cacheOnly: the stored answer, never the network; a list never stored is derived from the year's movies; none stored is notStored")
    func cacheOnly() async throws {
        let store = try await storeHoldingOld()
        let base = ScriptedMovieService(.answer(new))
        let snapshot = try await service(base, store: store).movies(.topRated, year: 2016, policy: .cacheOnly)
        #expect(snapshot.source == .store)
        #expect(snapshot.value == old)
        let derived = try await service(base, store: store).movies(.topGrossing, year: 2016, policy: .cacheOnly)
        #expect(derived.source == .derived(records: 3))
        #expect(derived.value.map(\.id) == [3, 2, 1], "grossing descending")
        await #expect(throws: CacheFailure<TestFailure>.nothingStored(what: "the top grossing movies of 2015")) {
            try await service(base, store: store).movies(.topGrossing, year: 2015, policy: .cacheOnly)
        }
        #expect(base.callCount == 0)
        #expect(try await store.list(ListQuery(.topGrossing, year: 2016), api: Fixtures.api) == nil, "a derived list is never stored")
    }

    @Test("one movie: stored by the network, then served from the store when offline")
    func singleMovie() async throws {
        let store = try makeStore()
        let base = ScriptedMovieService(.answer(new))
        let fresh = try await service(base, store: store).movie(id: 6, policy: .networkElseCache)
        #expect(fresh.source == .network)
        base.set(.fail(TestFailure.offline))
        let stale = try await service(base, store: store).movie(id: 6, policy: .networkElseCache)
        #expect(stale.isStale)
        #expect(stale.value == Fixtures.movie(6))
        let (snapshots, error) = await service(base, store: try makeStore()).snapshotsOfMovie(id: 6, policy: .cacheThenNetwork).collect()
        #expect(snapshots.isEmpty, "no stored movie means no store snapshot, unlike an empty list")
        #expect(error as? TestFailure == .offline, "the network's failure ends the stream")
    }

    @Test("the plain MovieService calls use the default policy")
    func defaultPolicy() async throws {
        let store = try await storeHoldingOld()
        let cached = CachedMovieService(base: ScriptedMovieService(.fail(TestFailure.offline)), store: store, api: Fixtures.api, defaultPolicy: .networkElseCache, now: clock.now)
        #expect(try await cached.movies(.topRated, year: 2016) == old)
        let service: any MovieService = cached
        await #expect(throws: CacheFailure<TestFailure>.network(.offline)) { try await service.movies(.topGrossing, year: 2015) }
    }
}
