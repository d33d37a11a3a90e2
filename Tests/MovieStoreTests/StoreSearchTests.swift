import Foundation
import MovieContract
import Movies
@testable import MovieStore
import SearchPlanning
import Testing

/// The store's offline search answers by the server's rules: the same ids, in the same order,
/// as the rules computed here by brute force; only the API's own movies.
@Suite("Offline search in the store")
struct StoreSearchTests {
    static let movies: [Movie] = {
        var movies = (1...300).map { id in
            Fixtures.movie(
                id, year: 2014 + id % 4, name: ["The", "Lost", "Golden", "Pokémon"][id % 4] + " " + ["Harbor", "Empire", "Détective", "Garden"][id / 4 % 4] + " \(id % 7)",
                cast: [["Renée Zellweger", "Ava Costa"], ["Ünal Öztürk"], ["Ben Berg", "Ava Silva"]][id % 3]
            )
        }
        movies.append(Fixtures.movie(999, name: "Zoo \"OR\" NEAR(Story) - Part*2", cast: ["Ines Costa"]))
        // "the e" in three relevances: both words in the title, "the" in it and "e…" in the cast, "e…" in it and "the" in the cast.
        movies += (1001...1012).map { Fixtures.movie($0, name: "The Garden \($0)", cast: ["Ellen Ewe"]) }
        movies += (1013...1018).map { Fixtures.movie($0, name: "Empire Nights \($0)", cast: ["Theo The"]) }
        return movies
    }()

    static let requests: [MovieSearchRequest] = [
        .init(text: "pokemon"), .init(text: "POKÉMON det"), .init(text: "renee"), .init(text: "ava"), .init(text: "ava costa"),
        .init(text: "the har", sort: .title), .init(text: "golden", sort: .rating, order: .ascending), .init(text: "\"OR\" NEAR("),
        .init(text: "*"), .init(text: "ozturk", year: 2015), .init(text: nil, year: 2016, sort: .released), .init(text: nil, sort: .title),
        .init(text: "e"), .init(text: "part 2"), .init(text: "nothing"),
    ]

    @Test("15 requests: the ids the rules give, in their order; the other API's movies are never found")
    func sameAsTheRules() async throws {
        let store = try makeStore()
        try await store.saveMovies(Self.movies, api: Fixtures.api, fetchedAt: Date())
        try await store.saveMovies([Fixtures.movie(5000, name: "Pokémon Elsewhere")], api: "http://other.test/api/", fetchedAt: Date())
        for request in Self.requests {
            let found = try await store.search(request, limit: nil, api: Fixtures.api)
            #expect(found.movies.map(\.id) == Self.expected(request), "\(request)")
            #expect(found.searched == Self.movies.count)
        }
        #expect(try await store.search(.init(text: "pokemon"), limit: 5, api: Fixtures.api).movies.count == 5)
    }

    @Test("a first page read a relevance at a time, sorting or walking each, is the rules' first page", arguments: [TierReading.bySize, .sortingMatches, .walkingIndex])
    func firstPages(reading: TierReading) async throws {
        let store = try makeStore()
        try await store.saveMovies(Self.movies, api: Fixtures.api, fetchedAt: Date())
        try await store.saveMovies([Fixtures.movie(5000, name: "Pokémon Elsewhere", cast: ["Ava Costa"])], api: "http://other.test/api/", fetchedAt: Date())
        let requests = Self.requests + [.init(text: "the e"), .init(text: "costa the"), .init(text: "golden harbor 3", year: 2015), .init(text: "ava", sort: .grossing, order: .ascending)]
        for request in requests {
            for limit in [1, 7, 40] {
                let found = try await store.search(request, limit: limit, api: Fixtures.api, tierReading: reading)
                #expect(found.movies.map(\.id) == Array(Self.expected(request).prefix(limit)), "\(reading) \(limit) \(request)")
            }
        }
    }

    static func expected(_ request: MovieSearchRequest) -> [Int] {
        let words = request.words
        if request.text != nil, words.isEmpty { return [] }
        let ascending = request.effectiveOrder == .ascending
        let rows = movies.compactMap { movie -> (Movie, Int)? in
            if let year = request.year, movie.year != year { return nil }
            let title = SearchText.words(movie.name), all = title + movie.cast.flatMap { SearchText.words($0.name) }
            func has(_ list: [String], _ index: Int) -> Bool {
                index == words.count - 1 ? list.contains { $0.hasPrefix(words[index]) } : list.contains(words[index])
            }
            guard words.indices.allSatisfy({ has(all, $0) }) else { return nil }
            return (movie, words.indices.filter { has(title, $0) }.count)
        }
        func precedes(_ a: Movie, _ b: Movie) -> Bool? {
            switch request.effectiveSort {
            case .relevance, .grossing: a.grossing == b.grossing ? nil : a.grossing < b.grossing
            case .rating: a.rating == b.rating ? nil : a.rating < b.rating
            case .released: a.releaseDate == b.releaseDate ? nil : a.releaseDate < b.releaseDate
            case .title:
                titleKey(a.name) == titleKey(b.name) ? nil
                    : titleKey(a.name).unicodeScalars.lexicographicallyPrecedes(titleKey(b.name).unicodeScalars)
            }
        }
        return rows.sorted { a, b in
            if a.1 != b.1 { return a.1 > b.1 }
            if let less = precedes(a.0, b.0) { return ascending ? less : !less }
            return ascending ? a.0.id < b.0.id : a.0.id > b.0.id
        }.map(\.0.id)
    }

    /// The title order's key as the rules state it: the folded title's first 100 code points.
    static func titleKey(_ title: String) -> String {
        String(String.UnicodeScalarView(SearchText.folded(title).unicodeScalars.prefix(100)))
    }
}
