import Foundation
import GRDB
import MovieContract
import Movies
@testable import MovieStore
import SearchPlanning
import Testing

/// Filtered searches in the store find what the rules find, in their order: a page from the API's
/// facets in memory (``FacetSearch``), every match from one statement; and the facets follow
/// every write.
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
            MovieSearchRequest(text: "e", year: 2015, filter: filter), MovieSearchRequest(text: nil, year: 2016, sort: .rating, filter: filter),
        ]
    }

    @Test("every filter with words in each sort: the rules' first page from the facets, and every match in one statement")
    func pages() async throws {
        let store = try makeStore()
        try await store.saveMovies(Self.movies, api: Fixtures.api, fetchedAt: Date())
        try await store.saveMovies([Fixtures.movie(5000, name: "The Harbor Elsewhere")], api: "http://other.test/api/", fetchedAt: Date())
        for request in Self.requests {
            for limit in [1, 7, 40, nil] as [Int?] {
                let found = try await store.search(request, limit: limit, api: Fixtures.api)
                let expected = Self.expected(request)
                #expect(found.movies.map(\.id) == Array(expected.prefix(limit ?? expected.count)), "\(limit ?? 0) \(request)")
                #expect(found.searched == Self.movies.count)
            }
        }
    }

    @Test("a filter few movies pass read from the facets, a broad one a relevance at a time (sorting or walking each): the same page",
          arguments: [(0, TierReading.sortingMatches), (0, .walkingIndex), (0, .bySize), (FacetSearch.mostTestedInMemory, .bySize)])
    func eitherWay(testedInMemory: Int, reading: TierReading) async throws {
        let store = try makeStore()
        try await store.saveMovies(Self.movies, api: Fixtures.api, fetchedAt: Date())
        try await store.saveMovies([Fixtures.movie(5000, name: "The Harbor Elsewhere", cast: ["Ava Costa"])], api: "http://other.test/api/", fetchedAt: Date())
        let facets = store.facets
        for request in Self.requests {
            for limit in [1, 7, 40] {
                let ids = try await store.pool.read { db in
                    _ = try facets.facets(api: Fixtures.api, in: db)
                    let kept = try #require(try facets.facets(api: Fixtures.api, in: db), "the second asking reads the facets")
                    let page = FacetSearch(facets: kept, request: request, testedInMemory: testedInMemory).rowIDs(limit: limit)
                    let rows = try page.map { try MovieSearching.rowsInOrder($0, in: db) } ?? MovieSearching.search(
                        request, limit: limit, api: Fixtures.api, in: db, tierReading: reading
                    ).movies.map { Row(["id": $0.id]) }
                    return rows.map { $0["id"] as Int }
                }
                #expect(ids == Array(Self.expected(request).prefix(limit)), "\(testedInMemory) \(reading) \(limit) \(request)")
            }
        }
    }

    @Test("a filtered page ranks as the rules do: the whole title, then one that begins with the whole word, then with its letters, then one that holds it")
    func relevanceOrder() async throws {
        let store = try makeStore()
        let titles = [(1, "Lost Harbor"), (2, "Harborview"), (3, "Harbor Lights"), (4, "Harbor"), (5, "Harbor Lights")]
        let movies = titles.map { id, title in
            var movie = Fixtures.movie(id, name: title)
            movie.details = MovieDetails(genres: ["Drama"])
            return movie
        }
        try await store.saveMovies(movies, api: Fixtures.api, fetchedAt: Date())
        var drama = MovieFilter()
        drama.require(genres: ["Drama"])
        let found = try await store.search(MovieSearchRequest(text: "harbor", sort: .grossing, order: .ascending, filter: drama), limit: 10, api: Fixtures.api)
        #expect(found.movies.map(\.id) == [4, 3, 5, 2, 1])
    }

    @Test("a process's first filtered page of an API reads SQLite; the second reads the facets, kept until the API's movies change")
    func facetsFromTheSecondPage() async throws {
        let store = try makeStore()
        try await store.saveMovies(Self.movies, api: Fixtures.api, fetchedAt: Date())
        let cache = StoredFacetsCache()
        let (first, second, third) = try await store.pool.read { db in
            (try cache.facets(api: Fixtures.api, in: db), try cache.facets(api: Fixtures.api, in: db), try cache.facets(api: Fixtures.api, in: db))
        }
        #expect(first == nil)
        #expect(second?.rowIDs.count == Self.movies.count)
        #expect(third?.signature == second?.signature)
        try await store.saveMovies([Fixtures.movie(8000)], api: Fixtures.api, fetchedAt: Date())
        let fourth = try await store.pool.read { db in try cache.facets(api: Fixtures.api, in: db) }
        #expect(fourth?.rowIDs.count == Self.movies.count + 1, "read again once the API's movies changed")
    }

    @Test("an API of more movies than the facets may hold is always read from SQLite, and keeps nothing in memory")
    func tooManyForFacets() async throws {
        let store = try makeStore()
        try await store.saveMovies(Self.movies, api: Fixtures.api, fetchedAt: Date())
        let small = StoredFacetsCache(mostMovies: Self.movies.count - 1), enough = StoredFacetsCache(mostMovies: Self.movies.count)
        let (refused, kept) = try await store.pool.read { db in
            for _ in 0..<3 { _ = try small.facets(api: Fixtures.api, in: db); _ = try enough.facets(api: Fixtures.api, in: db) }
            return (try small.facets(api: Fixtures.api, in: db), try enough.facets(api: Fixtures.api, in: db))
        }
        #expect(refused == nil)
        #expect(kept != nil)
    }

    @Test("filtered pages asked by 40 tasks at once while movies are written: each the page of one state of the store, the last of them after the writes")
    func concurrentPages() async throws {
        let store = try makeStore()
        try await store.saveMovies(Self.movies, api: Fixtures.api, fetchedAt: Date())
        var drama = MovieFilter()
        drama.require(genres: ["Drama"])
        let request = MovieSearchRequest(text: nil, sort: .grossing, order: .ascending, filter: drama)
        let before = Array(Self.expected(request).prefix(10))
        // After k writes, the k new films (grossing nothing, so first) lead the page.
        let pages = (0...10).map { written in Array((Array(9000..<9000 + written) + before).prefix(10)) }
        let wrong = try await withThrowingTaskGroup(of: Int.self) { group in
            group.addTask {
                for written in 0..<10 {
                    var film = Fixtures.movie(9000 + written, name: "Drama Story \(written)")
                    film.grossing = 0
                    film.details = MovieDetails(genres: ["Drama"])
                    try await store.saveMovies([film], api: Fixtures.api, fetchedAt: Date())
                }
                return 0
            }
            for _ in 0..<40 {
                group.addTask { pages.contains(try await store.search(request, limit: 10, api: Fixtures.api).movies.map(\.id)) ? 0 : 1 }
            }
            return try await group.reduce(0, +)
        }
        #expect(wrong == 0, "a page that is no state of the store")
        let last = try await store.search(request, limit: 10, api: Fixtures.api)
        #expect(last.movies.map(\.id) == pages[10])
        #expect(last.searched == Self.movies.count + 10)
    }

    @Test("a page of 1,100 movies comes whole and in order from SQLite and from the facets; rows are read for more ids than SQLite takes values in one statement")
    func largePage() async throws {
        let store = try makeStore()
        let movies = (1...1_200).map { id in
            var movie = Fixtures.movie(id, name: "Film \(id)")
            movie.details = MovieDetails(genres: ["Drama"])
            return movie
        }
        try await store.saveMovies(movies, api: Fixtures.api, fetchedAt: Date())
        var drama = MovieFilter()
        drama.require(genres: ["Drama"])
        let request = MovieSearchRequest(text: nil, sort: .grossing, filter: drama)
        for _ in 0..<2 {
            let found = try await store.search(request, limit: 1_100, api: Fixtures.api)
            #expect(found.movies.map(\.id) == Array((101...1_200).reversed()))
        }
        let asked = Array((1...300_000).reversed()).map(Int64.init)
        let rows = try await store.pool.read { db in try MovieSearching.rowsInOrder(asked, in: db) }
        #expect(rows.map { $0["id"] as Int } == Array((1...1_200).reversed()), "the stored ones, in the order asked")
    }

    @Test("the facets follow the store: a movie stored, changed or evicted after a filtered page is in the next as it is now")
    func facetsFollowWrites() async throws {
        let store = try makeStore()
        try await store.saveMovies(Self.movies, api: Fixtures.api, fetchedAt: Date())
        var war = MovieFilter()
        war.require(genres: ["War"])
        let request = MovieSearchRequest(text: nil, sort: .grossing, filter: war)
        #expect(try await store.search(request, limit: 5, api: Fixtures.api).movies.isEmpty)

        var first = Fixtures.movie(7000, name: "The Long War")
        first.details = MovieDetails(genres: ["War"])
        try await store.saveMovies([first], api: Fixtures.api, fetchedAt: Date())
        #expect(try await store.search(request, limit: 5, api: Fixtures.api).movies.map(\.id) == [7000], "a movie stored")

        var changed = Self.movies[10]
        changed.details = MovieDetails(genres: ["War", "Drama"])
        changed.grossing = 99_000_000
        try await store.saveMovies([changed], api: Fixtures.api, fetchedAt: Date())
        #expect(try await store.search(request, limit: 5, api: Fixtures.api).movies.map(\.id) == [changed.id, 7000], "a movie changed: its genres and its order")
        #expect(try await store.search(MovieSearchRequest(text: "the", sort: .grossing, filter: war), limit: 5, api: Fixtures.api).movies.map(\.id).contains(7000))

        try await store.write { db in try db.execute(sql: "DELETE FROM movie WHERE id = 7000") }
        #expect(try await store.search(request, limit: 5, api: Fixtures.api).movies.map(\.id) == [changed.id], "a movie gone")
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
