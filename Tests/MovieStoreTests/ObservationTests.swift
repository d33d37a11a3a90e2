import Foundation
import Movies
@testable import MovieStore
import Testing

/// Observation emits the stored value at once, then once per change, and never for a write
/// that leaves it unchanged.
@Suite("Observation", .timeLimit(.minutes(1)))
struct ObservationTests {
    let date = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("a list observation emits on a change of that list and not on other writes")
    func emitsOnChangeOnly() async throws {
        let store = try makeStore()
        let cached = CachedMovieService(base: ScriptedMovieService(.answer([])), store: store, api: Fixtures.api)
        var values = cached.observe(.topGrossing, year: 2016).makeAsyncIterator()

        let initial = try await values.next()
        #expect(initial == .some(nil))

        try await store.saveList([Fixtures.movie(1)], for: ListQuery(.topRated, year: 2016), api: Fixtures.api, fetchedAt: date)
        try await store.saveList([Fixtures.movie(2)], for: ListQuery(.topGrossing, year: 2015), api: Fixtures.api, fetchedAt: date)
        try await store.saveList([Fixtures.movie(3)], for: ListQuery(.topGrossing, year: 2016), api: Fixtures.api, fetchedAt: date)
        let changed = try await values.next()
        #expect(changed == StoredValue(value: [Fixtures.movie(3)], fetchedAt: date), "the unrelated writes must not have emitted")

        try await store.saveList([Fixtures.movie(3)], for: ListQuery(.topGrossing, year: 2016), api: Fixtures.api, fetchedAt: date)
        try await store.saveList([Fixtures.movie(3), Fixtures.movie(4)], for: ListQuery(.topGrossing, year: 2016), api: Fixtures.api, fetchedAt: date)
        let grown = try await values.next()
        #expect(grown??.value.map(\.id) == [3, 4], "rewriting the same answer must not have emitted")
    }

    @Test("a rewrite of the same answer is fetched and emits nothing: the next value is the next change")
    func unchangedWritesEmitNothing() async throws {
        let store = try makeStore()
        let (fetches, fetched) = AsyncStream<Void>.makeStream()
        var values = store.observeList(ListQuery(.topGrossing, year: 2016), api: Fixtures.api, didFetch: { fetched.yield() }).makeAsyncIterator()
        var fetchCount = fetches.makeAsyncIterator()
        #expect(try await values.next() == .some(nil))
        await fetchCount.next()

        try await store.saveList([Fixtures.movie(1)], for: ListQuery(.topGrossing, year: 2016), api: Fixtures.api, fetchedAt: date)
        await fetchCount.next()
        #expect(try await values.next()??.value == [Fixtures.movie(1)])

        for _ in 0..<3 {
            try await store.saveList([Fixtures.movie(1)], for: ListQuery(.topGrossing, year: 2016), api: Fixtures.api, fetchedAt: date)
            await fetchCount.next()
        }
        try await store.saveList([Fixtures.movie(2)], for: ListQuery(.topGrossing, year: 2016), api: Fixtures.api, fetchedAt: date)
        await fetchCount.next()
        #expect(try await values.next()??.value == [Fixtures.movie(2)], "each rewrite was fetched; none may have emitted")
    }

    @Test("with the relay running, an observation sees a list another connection stores, as from another process")
    func seesOtherConnections() async throws {
        let store = try makeStore()
        let otherProcess = try MovieStore(url: store.url)
        var values = store.observeList(ListQuery(.topGrossing, year: 2016), api: Fixtures.api).makeAsyncIterator()
        #expect(try await values.next() == .some(nil))
        let relay = Task { try await store.relayWritesOfOtherProcesses(every: .milliseconds(20)) }
        defer { relay.cancel() }

        try await otherProcess.saveList([Fixtures.movie(7)], for: ListQuery(.topGrossing, year: 2016), api: Fixtures.api, fetchedAt: date)
        #expect(try await values.next()??.value == [Fixtures.movie(7)])
        try await otherProcess.saveList([Fixtures.movie(8)], for: ListQuery(.topGrossing, year: 2016), api: Fixtures.api, fetchedAt: date)
        #expect(try await values.next()??.value == [Fixtures.movie(8)])
    }

    @Test("a movie observation emits when the movie changes, also through another list")
    func observesMovies() async throws {
        let store = try makeStore()
        var values = store.observeMovie(id: 5, api: Fixtures.api).makeAsyncIterator()
        #expect(try await values.next() == .some(nil))
        try await store.saveList([Fixtures.movie(5)], for: ListQuery(.topRated, year: 2016), api: Fixtures.api, fetchedAt: date)
        #expect(try await values.next()??.value == Fixtures.movie(5))
        let renamed = Fixtures.movie(5, name: "Five")
        try await store.saveList([renamed], for: ListQuery(.topGrossing, year: 2016), api: Fixtures.api, fetchedAt: date)
        #expect(try await values.next()??.value == renamed)
    }

    @Test("a network answer through the cached service reaches observers")
    func observesNetworkAnswers() async throws {
        let store = try makeStore()
        let cached = CachedMovieService(base: ScriptedMovieService(.answer(Fixtures.ten)), store: store, api: Fixtures.api, now: { date })
        var values = cached.observe(.topRated, year: 2016).makeAsyncIterator()
        #expect(try await values.next() == .some(nil))
        _ = try await cached.movies(.topRated, year: 2016, policy: .networkOnly)
        #expect(try await values.next()??.value == Fixtures.ten)
    }
}
