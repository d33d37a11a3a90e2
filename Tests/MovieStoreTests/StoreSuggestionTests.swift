import Foundation
import MarqueeTestSupport
import MovieContract
import Movies
@testable import MovieStore
import Testing

/// "Did you mean" offline: the store's stored movies give the server's suggestions, by the same rule.
@Suite("Did you mean offline")
struct StoreSuggestionTests {
    static let movies = SuggestionCatalogue.entries.map { entry in
        Fixtures.movie(entry.id, year: entry.year, name: entry.title, cast: entry.cast)
    }

    private func filledStore() async throws -> MovieStore {
        let store = try makeStore()
        try await store.saveMovies(Self.movies, api: Fixtures.api, fetchedAt: Date())
        return store
    }

    @Test("the issue's typos are suggested from the stored movies, and nothing where nothing is meant")
    func typos() async throws {
        let store = try await filledStore()
        for typo in SuggestionCatalogue.typos {
            let found = try await store.suggestion(for: MovieSearchRequest(text: typo.typed), latestYear: 2027, api: Fixtures.api)
            #expect(found == SearchSuggestion(query: typo.query, year: typo.year, movies: typo.movies), "\(typo.typed)")
        }
        for query in SuggestionCatalogue.withoutSuggestion {
            #expect(try await store.suggestion(for: MovieSearchRequest(text: query), latestYear: 2027, api: Fixtures.api) == nil, "\(query)")
        }
    }

    @Test("only the API's own movies are searched: another API's words are never suggested")
    func perAPI() async throws {
        let store = try await filledStore()
        let found = try await store.suggestion(for: MovieSearchRequest(text: "zootopa"), latestYear: 2027, api: "http://other.test/api/")
        #expect(found == nil)
    }

    @Test("the cached service asks the network first, and the store when the network cannot answer or the search was offline")
    func cachedService() async throws {
        let store = try await filledStore()
        let base = ScriptedMovieService(.fail(.offline))
        let service = CachedMovieService(base: base, store: store, api: Fixtures.api)
        let offline = await service.suggestion(for: MovieSearchRequest(text: "jungel"), offline: false)
        #expect(offline == StoredSuggestion(suggestion: SearchSuggestion(query: "jungle", year: nil, movies: 2), fromStore: true))
        base.set(.answer([]))
        #expect(await service.suggestion(for: MovieSearchRequest(text: "jungel"), offline: false) == nil, "the network's answer (none) stands")
        #expect(await service.suggestion(for: MovieSearchRequest(text: "jungel"), offline: true)?.fromStore == true)
    }
}
