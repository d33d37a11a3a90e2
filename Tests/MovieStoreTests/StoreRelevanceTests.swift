import Foundation
import MarqueeTestSupport
import Movies
@testable import MovieStore
import Testing

/// Offline, the store ranks as the server does: the film a person asks for by its title first.
@Suite("Offline search ranks as people search")
struct StoreRelevanceTests {
    static let movies: [Movie] = RelevanceTable.films.map { film in
        Movie(
            id: film.id, name: film.title, year: film.year, releaseDate: Date(timeIntervalSince1970: 0),
            grossing: film.grossing, rating: 7, cast: [MovieActor(name: "Cast Member \(film.id)")]
        )
    }

    @Test("each search of the table: its film first, whether the store ranks every match or reads a relevance at a time", arguments: [TierReading.bySize, .sortingMatches, .walkingIndex])
    func filmFirst(reading: TierReading) async throws {
        let store = try makeStore()
        try await store.saveMovies(Self.movies, api: Fixtures.api, fetchedAt: Date())
        for (query, first) in RelevanceTable.searches {
            for limit in [1, 3, 50] {
                let found = try await store.search(MovieSearchRequest(text: query), limit: limit, api: Fixtures.api, tierReading: reading)
                #expect(found.movies.first?.name == first, "\(reading) \(limit) '\(query)': \(found.movies.map(\.name))")
            }
        }
    }
}
