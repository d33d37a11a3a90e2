import Foundation
import MarqueeTestSupport
import MovieContract
import MovieStore
import Movies
import NIOConcurrencyHelpers
import Testing

/// A revalidating base with one current answer: it answers `304` to its own tag, and records the
/// tag of every call.
final class RevalidatingFake: MovieService {
    struct Current: Sendable {
        var movies: [Movie]
        var freshness: Freshness
    }

    private let current: NIOLockedValueBox<Current>
    private let received = NIOLockedValueBox<[String?]>([])
    /// Runs before a `304` is given, as another process would act meanwhile.
    let beforeNotModified: @Sendable () async throws -> Void

    init(_ movies: [Movie], freshness: Freshness, beforeNotModified: @escaping @Sendable () async throws -> Void = {}) {
        current = NIOLockedValueBox(Current(movies: movies, freshness: freshness))
        self.beforeNotModified = beforeNotModified
    }

    var receivedTags: [String?] { received.withLockedValue { $0 } }

    func set(_ movies: [Movie], freshness: Freshness) { current.withLockedValue { $0 = Current(movies: movies, freshness: freshness) } }

    func movie(id: Int) async throws -> Movie { try await movie(id: id, ifNoneMatch: nil).value }
    func movies(_ list: MovieList, year: Int) async throws -> [Movie] { try await movies(list, year: year, ifNoneMatch: nil).value }
    func search(_ request: MovieSearchRequest) async throws -> MovieSearchPage { MovieSearchPage(movies: [], next: nil) }

    func movie(id: Int, ifNoneMatch entityTag: String?) async throws -> Revalidation<Movie> {
        switch try await answer(entityTag) {
        case let .modified(movies, freshness):
            guard let movie = movies.first(where: { $0.id == id }) else { throw TestFailure.notFound }
            return .modified(movie, freshness)
        case let .notModified(freshness):
            return .notModified(freshness)
        }
    }

    func movies(_ list: MovieList, year: Int, ifNoneMatch entityTag: String?) async throws -> Revalidation<[Movie]> { try await answer(entityTag) }

    private func answer(_ entityTag: String?) async throws -> Revalidation<[Movie]> {
        received.withLockedValue { $0.append(entityTag) }
        let current = self.current.withLockedValue { $0 }
        if let entityTag, entityTag == current.freshness.entityTag {
            try await beforeNotModified()
            return .notModified(current.freshness)
        }
        return .modified(current.movies, current.freshness)
    }
}

extension Revalidation {
    var value: Value {
        get throws {
            guard case let .modified(value, _) = self else { throw TestFailure.notFound }
            return value
        }
    }
}

@Suite("Revalidation in the cache")
struct RevalidationPolicyTests {
    let clock = ManualClock()
    let tagged = Freshness(entityTag: "\"v1\"", maxAge: .seconds(120))

    func service<Base: MovieService>(_ base: Base, store: MovieStore, policy: CachePolicy = .networkElseCache) -> CachedMovieService<Base> {
        CachedMovieService(base: base, store: store, api: Fixtures.api, defaultPolicy: policy, now: clock.now)
    }

    @Test("cacheThenNetwork: the second run sends the stored tag, gets a 304, resets the list's age and writes no movie")
    func revalidatesAList() async throws {
        let store = try makeStore()
        let base = RevalidatingFake(Fixtures.ten, freshness: tagged)
        let cache = service(base, store: store)
        _ = await cache.snapshots(.topRated, year: 2016, policy: .cacheThenNetwork).collect()
        let firstFetch = clock.now()
        let movieBefore = try await store.movie(id: Fixtures.ten[0].id, api: Fixtures.api)
        #expect(try await store.list(ListQuery(.topRated, year: 2016), api: Fixtures.api)?.entityTag == "\"v1\"")

        clock.advance(by: 600)
        let (snapshots, error) = await cache.snapshots(.topRated, year: 2016, policy: .cacheThenNetwork).collect()
        #expect(error == nil)
        #expect(base.receivedTags == [nil, "\"v1\""])
        #expect(snapshots.map(\.revalidated) == [false, true])
        #expect(snapshots.map(\.fetchedAt) == [firstFetch, clock.now()])
        #expect(snapshots.last?.value == Fixtures.ten)
        let list = try await store.list(ListQuery(.topRated, year: 2016), api: Fixtures.api)
        #expect(list?.fetchedAt == clock.now())
        #expect(list?.maxAge == .seconds(120))
        #expect(try await store.movie(id: Fixtures.ten[0].id, api: Fixtures.api) == movieBefore, "no movie row is written")
    }

    @Test("a 304 for an answer another process removed meanwhile is followed by a plain request, and stored again")
    func revalidatesAVanishedAnswer() async throws {
        let store = try makeStore()
        let base = RevalidatingFake(Fixtures.ten, freshness: tagged) { _ = try await store.removeAPI(Fixtures.api) }
        let cache = service(base, store: store)
        _ = await cache.snapshots(.topGrossing, year: 2016, policy: .networkOnly).collect()
        let (snapshots, error) = await cache.snapshots(.topGrossing, year: 2016, policy: .networkOnly).collect()
        #expect(error == nil)
        #expect(base.receivedTags == [nil, "\"v1\"", nil])
        #expect(snapshots.map(\.revalidated) == [false])
        #expect(try await store.list(ListQuery(.topGrossing, year: 2016), api: Fixtures.api)?.value == Fixtures.ten)
    }

    @Test("a no-store answer is shown and never stored")
    func noStore() async throws {
        let store = try makeStore()
        let base = RevalidatingFake(Fixtures.ten, freshness: Freshness(entityTag: "\"v1\"", mayStore: false))
        let snapshot = await service(base, store: store).snapshots(.topRated, year: 2016, policy: .networkElseCache).collect().0.last
        #expect(snapshot?.value == Fixtures.ten)
        #expect(snapshot?.storeError == nil)
        #expect(try await store.list(ListQuery(.topRated, year: 2016), api: Fixtures.api) == nil)
        #expect(try await store.statistics().apis.isEmpty)
    }

    @Test("cacheElseNetwork without a max-age trusts the server's; without the server's, an hour")
    func serverMaxAge() async throws {
        let store = try makeStore()
        let base = RevalidatingFake(Fixtures.ten, freshness: tagged)
        let cache = service(base, store: store, policy: .cacheElseNetwork(maxAge: nil))
        _ = try await cache.movies(.topRated, year: 2016)
        clock.advance(by: 119)
        _ = try await cache.movies(.topRated, year: 2016)
        #expect(base.receivedTags == [nil], "119 s old is fresh for a max-age of 120 s")
        clock.advance(by: 2)
        _ = try await cache.movies(.topRated, year: 2016)
        #expect(base.receivedTags == [nil, "\"v1\""], "121 s old is revalidated")

        let plain = ScriptedMovieService(.answer(Fixtures.ten))
        let plainCache = service(plain, store: try makeStore(), policy: .cacheElseNetwork(maxAge: nil))
        _ = try await plainCache.movies(.topRated, year: 2016)
        clock.advance(by: 3599)
        _ = try await plainCache.movies(.topRated, year: 2016)
        #expect(plain.callCount == 1)
        clock.advance(by: 2)
        _ = try await plainCache.movies(.topRated, year: 2016)
        #expect(plain.callCount == 2)
    }

    @Test("a movie asked by id is revalidated with its own tag; a list that rewrites it drops that tag")
    func revalidatesAMovie() async throws {
        let store = try makeStore()
        let base = RevalidatingFake(Fixtures.ten, freshness: tagged)
        let cache = service(base, store: store)
        let id = Fixtures.ten[0].id
        _ = try await cache.movie(id: id)
        clock.advance(by: 60)
        let snapshot = await cache.snapshotsOfMovie(id: id, policy: .networkElseCache).collect().0.last
        #expect(snapshot?.revalidated == true)
        #expect(base.receivedTags == [nil, "\"v1\""])
        #expect(try await store.movie(id: id, api: Fixtures.api)?.fetchedAt == clock.now())

        try await store.saveList(Fixtures.ten, for: ListQuery(.topRated, year: 2016), api: Fixtures.api, fetchedAt: clock.now())
        #expect(try await store.movie(id: id, api: Fixtures.api)?.entityTag == nil)
    }
}
