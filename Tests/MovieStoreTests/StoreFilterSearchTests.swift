import Foundation
import GRDB
import MovieContract
import Movies
@testable import MovieStore
import SearchPlanning
import Testing

/// Filtered searches in the store find what the rules find, in their order, whichever way a page
/// is read: in one walk of the sort's index (a filter few movies pass, ``FilteredStoreSearch``) or
/// a relevance at a time with the filter tested in each (sorting or walking each relevance).
@Suite("Offline search in the store: filters")
struct StoreFilterSearchTests {
    static let movies: [Movie] = StoreSearchTests.movies.map { movie in
        var movie = movie
        let genres = [["Drama"], ["Comedy", "Drama"], ["Crime"], ["Comedy"], ["Sci-Fi", "Drama"]][movie.id % 5]
        movie.details = MovieDetails(runtimeMinutes: movie.id % 9 == 0 ? nil : 80 + movie.id % 60, genres: genres, votes: movie.id % 11 == 0 ? nil : movie.id * 7)
        return movie
    }

    static let filters: [MovieFilter] = {
        func filter(_ build: (inout MovieFilter) -> Void) -> MovieFilter {
            var filter = MovieFilter()
            build(&filter)
            return filter
        }
        return [
            filter { $0.require(genres: ["Drama"]) },
            filter { $0.require(genres: ["Comedy", "Drama"]); $0.runtime = 90...120 },
            filter { $0.minimumVotes = 700; $0.minimumRating = 5 },
            filter { $0.years = 2015...2016; $0.require(genres: ["Sci-Fi"]) },
            filter { $0.runtime = 139...139 },
        ]
    }()

    static let requests: [MovieSearchRequest] = filters.flatMap { filter in
        [
            MovieSearchRequest(text: "the", filter: filter), MovieSearchRequest(text: "ava", sort: .title, filter: filter),
            MovieSearchRequest(text: "golden harbor", sort: .rating, order: .ascending, filter: filter),
            MovieSearchRequest(text: "e", sort: .released, filter: filter), MovieSearchRequest(text: "the e", sort: .grossing, order: .ascending, filter: filter),
            MovieSearchRequest(text: nil, sort: .title, order: .descending, filter: filter),
        ]
    }

    @Test("every filter with words in each sort: the rules' first page, read in one walk or a relevance at a time", arguments: [TierReading.bySize, .sortingMatches, .walkingIndex])
    func firstPages(reading: TierReading) async throws {
        let store = try makeStore()
        try await store.saveMovies(Self.movies, api: Fixtures.api, fetchedAt: Date())
        for request in Self.requests {
            for limit in [1, 7, 40] {
                let found = try await store.search(request, limit: limit, api: Fixtures.api, tierReading: reading)
                #expect(found.movies.map(\.id) == Array(Self.expected(request).prefix(limit)), "\(reading) \(limit) \(request)")
            }
        }
    }

    @Test("the estimate of how many movies pass a filter: a tenth of a thousand is few against 200, many against 50")
    func estimate() async throws {
        let store = try makeStore()
        let movies = (1...1_000).map { id in
            var movie = Fixtures.movie(id, name: "Film \(id)")
            movie.details = MovieDetails(genres: id % 10 == 0 ? ["War"] : ["Drama"])
            return movie
        }
        try await store.saveMovies(movies, api: Fixtures.api, fetchedAt: Date())
        var war = MovieFilter()
        war.require(genres: ["War"])
        let search = MovieSearchRequest(text: "film", filter: war)
        let (few, many) = try await store.pool.read { db in
            let filtered = FilteredStoreSearch(db: db, request: search, api: Fixtures.api)
            return (try filtered.passesFew(of: 1_000, bound: 200), try filtered.passesFew(of: 1_000, bound: 50))
        }
        #expect(few)
        #expect(!many)
    }

    static func expected(_ request: MovieSearchRequest) -> [Int] {
        let passing = Set(movies.filter { admits(request.filter, $0) }.map(\.id))
        return StoreSearchTests.expected(request).filter(passing.contains)
    }

    static func admits(_ filter: MovieFilter, _ movie: Movie) -> Bool {
        if let years = filter.years, !years.contains(movie.year) { return false }
        if let rating = filter.minimumRating, movie.rating < rating { return false }
        if let runtime = filter.runtime, !(movie.details?.runtimeMinutes.map(runtime.contains) ?? false) { return false }
        if let votes = filter.minimumVotes, (movie.details?.votes ?? -1) < votes { return false }
        return filter.genres.allSatisfy { movie.details?.genres?.contains($0) ?? false }
    }
}
