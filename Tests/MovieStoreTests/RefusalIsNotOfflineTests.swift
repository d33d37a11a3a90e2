import Foundation
import MovieContract
import MovieStore
import Movies
import NIOConcurrencyHelpers
import Testing

/// Only a network that cannot answer lets the store stand in: the server's own refusal of a
/// request (a 4xx) is the answer, and what was already read is kept.
@Suite("A refusal is not the network failing")
struct RefusalIsNotOfflineTests {
    let stored = Array(Fixtures.ten.prefix(3))

    func storeHoldingAList() async throws -> MovieStore {
        let store = try makeStore()
        try await store.saveList(stored, for: ListQuery(.topRated, year: 2016), api: Fixtures.api, fetchedAt: Date())
        return store
    }

    @Test("a refused list is the error under every policy that asks the network; an unreachable one is the stored list", arguments: [
        CachePolicy.networkElseCache, .cacheThenNetwork, .cacheElseNetwork(maxAge: .zero),
    ])
    func listPolicies(policy: CachePolicy) async throws {
        let store = try await storeHoldingAList()
        let refused = CachedMovieService(base: ScriptedMovieService(.fail(.refused)), store: store, api: Fixtures.api)
        await #expect(throws: CacheFailure<TestFailure>.network(.refused)) {
            try await refused.movies(.topRated, year: 2016, policy: policy)
        }
        let offline = CachedMovieService(base: ScriptedMovieService(.fail(.offline)), store: store, api: Fixtures.api)
        let answer = try await offline.movies(.topRated, year: 2016, policy: policy)
        #expect(answer.value == stored)
        #expect(answer.networkError == .offline)
        #expect(try await store.list(ListQuery(.topRated, year: 2016), api: Fixtures.api)?.value == stored)
    }

    @Test("a refused movie is the error, not the stored movie")
    func movie() async throws {
        let store = try await storeHoldingAList()
        let refused = CachedMovieService(base: ScriptedMovieService(.fail(.refused)), store: store, api: Fixtures.api)
        await #expect(throws: CacheFailure<TestFailure>.network(.refused)) {
            try await refused.movie(id: stored[0].id, policy: .networkElseCache)
        }
    }

    @Test("a refused search is the error; an unreachable one searches the store")
    func search() async throws {
        let store = try await storeHoldingAList()
        let request = MovieSearchRequest(text: nil, sort: .title)
        let refused = CachedMovieService(base: ScriptedMovieService(.fail(.refused)), store: store, api: Fixtures.api)
        await #expect(throws: CacheFailure<TestFailure>.network(.refused)) {
            try await refused.search(request, all: true, policy: .networkElseCache)
        }
        let offline = CachedMovieService(base: ScriptedMovieService(.fail(.offline)), store: store, api: Fixtures.api)
        let answer = try await offline.search(request, all: true, policy: .networkElseCache)
        #expect(answer.source == .searched(records: 3))
    }

    @Test("a walk of every page refused on its third page keeps the pages read, stored, with the error and the cursor that failed")
    func walkRefusedMidway() async throws {
        let store = try makeStore()
        let base = PagedMovieService(pages: [Array(Fixtures.ten[0..<3]), Array(Fixtures.ten[3..<6]), Array(Fixtures.ten[6..<10])], failingPage: 2, failure: .refused)
        let service = CachedMovieService(base: base, store: store, api: Fixtures.api)
        let answer = try await service.search(MovieSearchRequest(text: nil, sort: .title, limit: 3), all: true, policy: .networkElseCache)
        #expect(answer.source == .network)
        #expect(answer.isIncomplete)
        #expect(answer.networkError == .refused)
        #expect(answer.value.movies.map(\.id) == Fixtures.ten[0..<6].map(\.id))
        #expect(answer.value.next == "page-2")
        for movie in Fixtures.ten[0..<6] {
            #expect(try await store.movie(id: movie.id, api: Fixtures.api) != nil, "page movies are stored as they arrive")
        }
    }

    @Test("a walk whose network goes away on its third page searches the store, which holds the pages read")
    func walkOfflineMidway() async throws {
        let store = try makeStore()
        let base = PagedMovieService(pages: [Array(Fixtures.ten[0..<3]), Array(Fixtures.ten[3..<6]), Array(Fixtures.ten[6..<10])], failingPage: 2, failure: .offline)
        let service = CachedMovieService(base: base, store: store, api: Fixtures.api)
        let answer = try await service.search(MovieSearchRequest(text: nil, sort: .title, limit: 3), all: true, policy: .networkElseCache)
        #expect(answer.source == .searched(records: 6))
        #expect(Set(answer.value.movies.map(\.id)) == Set(Fixtures.ten[0..<6].map(\.id)))
        #expect(!answer.isIncomplete)
    }
}

/// Answers a walk page by page (`page-1`, `page-2`, … as cursors), failing at one page.
final class PagedMovieService: MovieService {
    let pages: [[Movie]]
    let failingPage: Int
    let failure: TestFailure

    init(pages: [[Movie]], failingPage: Int, failure: TestFailure) {
        self.pages = pages
        self.failingPage = failingPage
        self.failure = failure
    }

    func search(_ request: MovieSearchRequest) async throws(TestFailure) -> MovieSearchPage {
        let index = request.cursor.flatMap { Int($0.dropFirst("page-".count)) } ?? 0
        if index == failingPage { throw failure }
        return MovieSearchPage(movies: pages[index], next: index + 1 < pages.count ? "page-\(index + 1)" : nil)
    }

    func movie(id: Int) async throws(TestFailure) -> Movie { throw .notFound }
    func movies(_ list: MovieList, year: Int) async throws(TestFailure) -> [Movie] { throw .notFound }
    func isUnavailable(_ failure: TestFailure) -> Bool { failure != .refused }
}
