import Foundation
import MovieContract
import Movies

/// IMDb's details for the benchmark's stored movies, and filtered requests drawn over them with a
/// fixed seed: nobody tuned the store on these draws.
enum FilterDraws {
    static let genres = ["Drama", "Comedy", "Action", "Romance", "Thriller", "Crime", "Horror", "Adventure", "Documentary", "Sci-Fi", "War", "Film-Noir"]

    /// Details that vary with the id: a runtime (unknown for one in twenty), votes on a long tail
    /// (unknown for one in ten), one to three genres, the first ones commoner.
    static func details(id: Int) -> MovieDetails {
        var random = SplitMix(seed: UInt64(id))
        let runtime = random.next(100) < 95 ? 45 + Int(random.unit() * random.unit() * 195) : nil
        let votes = random.next(100) < 90 ? Int(pow(10, random.unit() * 6.3)) : nil
        var chosen: [String] = []
        for _ in 0..<(1 + random.next(3)) {
            let genre = genres[min(random.next(genres.count), random.next(genres.count))]
            if !chosen.contains(genre) { chosen.append(genre) }
        }
        return MovieDetails(imdbID: "tt\(10_000_000 + id)", runtimeMinutes: runtime, genres: CatalogMovieDetails.knownGenres.filter(chosen.contains), votes: votes)
    }

    static func requests(count: Int, seed: UInt64, filtered: Bool) -> [MovieSearchRequest] {
        var random = SplitMix(seed: seed)
        let words = ["the", "golden", "harbor lost", "ava", "s", "return of", "midnight", "ki"]
        let sorts: [SearchSort] = [.relevance, .grossing, .rating, .released, .title]
        return (0..<count).map { number in
            let sort = sorts[number % sorts.count]
            let text = sort == .relevance || random.next(5) < 2 ? words[random.next(words.count)] : nil
            var filter = MovieFilter()
            for _ in 0..<(1 + random.next(3)) {
                switch random.next(5) {
                case 0: filter.require(genres: [genres[random.next(genres.count)]])
                case 1:
                    let low = 45 + random.next(150)
                    filter.runtime = low...(low + [10, 30, 60, 120][random.next(4)])
                case 2:
                    let low = 1950 + random.next(70)
                    filter.years = low...(low + [1, 5, 10, 30][random.next(4)])
                case 3: filter.minimumVotes = Int(pow(10, random.unit() * 6))
                default: filter.minimumRating = Double(10 + random.next(89))
                }
            }
            let order: MovieContract.SortOrder? = [nil, .ascending, .descending][random.next(3)]
            return MovieSearchRequest(text: text, sort: sort == .relevance && text == nil ? nil : sort, order: order, filter: filtered ? filter : .none)
        }
    }
}

/// A small seeded generator (SplitMix64): the same draws on every machine.
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

    mutating func nextWord() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next(_ bound: Int) -> Int { Int(nextWord() % UInt64(bound)) }

    mutating func unit() -> Double { Double(nextWord() >> 11) / Double(1 << 53) }
}
