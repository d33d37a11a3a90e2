import Foundation
import MovieContract

/// The movies a ``MovieServer`` serves, with the orderings of the API precomputed.
///
/// Top lists hold at most ten movies of a year, best first; ties go to the higher id, as on the
/// original site.
public struct Catalog: Sendable {
    public static let topListLimit = 10

    public let movies: [CatalogMovie]
    private let moviesByID: [Int: CatalogMovie]
    private let topGrossingByYear: [Int: [CatalogMovie]]
    private let topRatedByYear: [Int: [CatalogMovie]]

    /// Builds a catalog after checking every movie; `source` names the data in error messages.
    public init(movies: [CatalogMovie], source: String = "catalog") throws(CatalogError) {
        try Self.check(movies, source: source)
        let byID = Dictionary(movies.map { ($0.id, $0) }) { first, _ in first }
        let byYear = Dictionary(grouping: movies, by: \.year)
        self.movies = movies
        self.moviesByID = byID
        self.topGrossingByYear = byYear.mapValues { Self.top($0, by: \.grossing) }
        self.topRatedByYear = byYear.mapValues { Self.top($0, by: \.rating) }
    }

    /// Checks `movies` as a catalog does, without building one: all an import needs, at the cost
    /// of a set of ids rather than the orderings (which hold every movie twice more).
    public static func check(_ movies: [CatalogMovie], source: String = "catalog") throws(CatalogError) {
        try check(CatalogBatches(movies), source: source)
    }

    /// Checks movies made a batch at a time, each batch let go once checked.
    public static func check(_ movies: CatalogBatches, source: String = "catalog") throws(CatalogError) {
        var ids = Set<Int>(minimumCapacity: movies.count)
        var index = 0
        for batch in movies.batches(of: 10_000) {
            for movie in batch {
                if let problem = problem(with: movie) {
                    throw .invalidMovie(file: source, index: index, reason: problem)
                }
                guard ids.insert(movie.id).inserted else {
                    throw .duplicateID(file: source, id: movie.id)
                }
                index += 1
            }
        }
    }

    public func movie(id: Int) -> CatalogMovie? { moviesByID[id] }

    public func topGrossing(year: Int) -> [CatalogMovie] { topGrossingByYear[year] ?? [] }

    public func topRated(year: Int) -> [CatalogMovie] { topRatedByYear[year] ?? [] }

    private static func top<Key: Comparable>(_ movies: [CatalogMovie], by key: KeyPath<CatalogMovie, Key>) -> [CatalogMovie] {
        let ordered = movies.sorted { lhs, rhs in
            lhs[keyPath: key] != rhs[keyPath: key] ? lhs[keyPath: key] > rhs[keyPath: key] : lhs.id > rhs.id
        }
        return Array(ordered.prefix(topListLimit))
    }

    /// C0 controls (NUL among them, which PostgreSQL cannot store) and DEL.
    private static func hasControlCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    /// The largest id and grossing a catalog may hold: the largest integer a JSON number keeps
    /// exactly in every client (2^53 − 1).
    public static let largestInteger = 9_007_199_254_740_991
    /// Ratings are scores out of 100.
    public static let ratingRange: ClosedRange<Double> = 0...100

    private static func problem(with movie: CatalogMovie) -> String? {
        if movie.id < 0 { return "id \(movie.id) is negative" }
        if movie.id > largestInteger { return "id \(movie.id) is larger than \(largestInteger)" }
        if movie.name.isEmpty { return "movie \(movie.id) has no name" }
        if hasControlCharacter(movie.name) { return "movie \(movie.id) has a control character in its name" }
        if let actor = movie.cast.firstIndex(where: { $0.name.isEmpty || hasControlCharacter($0.name) }) {
            return "movie \(movie.id) has an empty name or a control character in the name of cast member \(actor + 1)"
        }
        if !(ParameterParsing.yearRange).contains(movie.year) { return "movie \(movie.id) has year \(movie.year) outside 1...9999" }
        if CalendarDate.date(from: movie.releaseDate) == nil {
            return "movie \(movie.id) has releaseDate '\(movie.releaseDate)', expected yyyy-MM-dd"
        }
        if !movie.releaseDate.hasPrefix(String(format: "%04d-", movie.year)) {
            return "movie \(movie.id) has year \(movie.year) but releaseDate '\(movie.releaseDate)'"
        }
        if movie.grossing < 0 { return "movie \(movie.id) has a negative grossing" }
        if movie.grossing > largestInteger { return "movie \(movie.id) has grossing \(movie.grossing), larger than \(largestInteger)" }
        if !movie.rating.isFinite || !ratingRange.contains(movie.rating) {
            return "movie \(movie.id) has rating \(movie.rating), expected a number from 0 to 100"
        }
        if let problem = movie.details.problem { return "movie \(movie.id) \(problem)" }
        if let votes = movie.details.votes, votes > largestInteger { return "movie \(movie.id) has votes \(votes), larger than \(largestInteger)" }
        return nil
    }
}

extension Catalog {
    /// A catalog of no movies.
    public static let empty: Catalog = {
        do { return try Catalog(movies: []) } catch { preconditionFailure("an empty catalog is always valid") }
    }()
}
