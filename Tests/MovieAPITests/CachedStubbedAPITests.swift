import Foundation
import MarqueeTestSupport
import MovieAPI
import MovieStore
import Movies
import Networking
import Testing

/// `CachedMovieService` around the real `APIMovieService` on the stub: the article's offline case.
@Suite("CachedMovieService over the stubbed API")
struct CachedStubbedAPITests {
    @Test("stored by a success, then shown stale with the connection error when the network is gone")
    func offlineCase() async throws {
        let store = try MovieStore(url: TestFolders.temporary.appendingPathComponent("stubbed-\(UUID().uuidString)/movies.sqlite"))
        let online = CachedMovieService(base: StubbedStack(scenario: .success).movies, store: store, api: "test")
        let fresh = try await online.movies(.topRated, year: 2016, policy: .networkElseCache)
        #expect(fresh.source == .network)

        let offline = CachedMovieService(base: StubbedStack(scenario: .noNetwork).movies, store: store, api: "test")
        let stale = try await offline.movies(.topRated, year: 2016, policy: .networkElseCache)
        #expect(stale.isStale)
        #expect(stale.value == fresh.value)
        guard case .cannotConnect = stale.networkError else {
            Issue.record("expected cannotConnect, got \(String(describing: stale.networkError))")
            return
        }
    }
}
