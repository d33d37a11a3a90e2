/// What a listing or search keeps of the catalogue beyond its words: movies of every one of some
/// genres, of a runtime, a year span, at least so many votes, at least a rating. A movie whose
/// catalogue does not know a field the filter asks about does not pass it (an unknown runtime is
/// not "between 80 and 120"). Empty, it keeps every movie.
public struct MovieFilter: Sendable, Hashable {
    /// IMDb's names (``CatalogMovieDetails/knownGenres``), each once, in that list's order: a movie must have all.
    public private(set) var genres: [String]
    /// Minutes, both ends included.
    public var runtime: ClosedRange<Int>?
    /// Release years of more than one year (one year is the search's `year`), both ends included.
    public var years: ClosedRange<Int>?
    public var minimumVotes: Int?
    /// The catalogue's rating (0 to 100; IMDb's 7.5 is 75).
    public var minimumRating: Double?

    public init(genres: [String] = [], runtime: ClosedRange<Int>? = nil, years: ClosedRange<Int>? = nil, minimumVotes: Int? = nil, minimumRating: Double? = nil) {
        self.genres = Self.canonical(genres)
        self.runtime = runtime
        self.years = years
        self.minimumVotes = minimumVotes
        self.minimumRating = minimumRating
    }

    /// The filter that keeps every movie.
    public static let none = MovieFilter()

    public var isEmpty: Bool { genres.isEmpty && runtime == nil && years == nil && minimumVotes == nil && minimumRating == nil }

    /// Adds genres to the ones a movie must have.
    public mutating func require(genres more: [String]) {
        genres = Self.canonical(genres + more)
    }

    /// Whether a movie of `year` and `rating`, with these details, passes.
    public func admits(year: Int, rating: Double, details: CatalogMovieDetails?) -> Bool {
        if let years, !years.contains(year) { return false }
        if let minimumRating, rating < minimumRating { return false }
        if let runtime {
            guard let minutes = details?.runtimeMinutes, runtime.contains(minutes) else { return false }
        }
        if let minimumVotes {
            guard let votes = details?.votes, votes >= minimumVotes else { return false }
        }
        if !genres.isEmpty {
            guard let movieGenres = details?.genres, genres.allSatisfy(movieGenres.contains) else { return false }
        }
        return true
    }

    /// The genres as bits, bit `n` for the `n`th of ``CatalogMovieDetails/knownGenres``: what an index keeps per movie.
    public static func genreBits(_ genres: [String]?) -> UInt32 {
        (genres ?? []).reduce(0) { bits, genre in
            CatalogMovieDetails.knownGenres.firstIndex(of: genre).map { bits | 1 << UInt32($0) } ?? bits
        }
    }

    /// What tells this filter from another, for a cursor: the query string's values, in its order.
    public var fingerprint: String {
        queryItems.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
    }

    /// The parameters of `GET /api/movies` that ask for this filter, in the contract's order;
    /// the years are `year` (a span, `1990-1999`), the rest as their own parameters.
    public var queryItems: [(name: String, value: String)] {
        var items: [(name: String, value: String)] = []
        if let years { items.append(("year", MovieFilterText.span(years))) }
        if !genres.isEmpty { items.append(("genre", genres.joined(separator: ","))) }
        if let runtime { items.append(("runtime", MovieFilterText.span(runtime))) }
        if let minimumVotes { items.append(("minVotes", String(minimumVotes))) }
        if let minimumRating { items.append(("minRating", MovieFilterText.rating(minimumRating))) }
        return items
    }

    private static func canonical(_ genres: [String]) -> [String] {
        CatalogMovieDetails.knownGenres.filter(genres.contains)
    }
}
