import MovieContract

/// The store's index of one order among an API's movies (schema v18): a sort's (then the id), or
/// the title words' (whose ranges are the titles that begin with a search's words). Each holds the
/// columns a filter tests and the title words a relevance tests, so that a walk in order reads a
/// movie's row only when it passes.
enum StoredSortIndex: String, CaseIterable {
    case grossing = "movie_by_grossing"
    case rating = "movie_by_rating"
    case released = "movie_by_released"
    case title = "movie_by_title"
    case titleWords = "movie_by_titleWords"

    /// The indexes of the orders a page is sorted by.
    static let sorts: [StoredSortIndex] = [.grossing, .rating, .released, .title]

    init(_ sort: SearchSort) {
        switch sort {
        case .relevance, .grossing: self = .grossing
        case .rating: self = .rating
        case .released: self = .released
        case .title: self = .title
        }
    }

    var name: String { rawValue }

    /// The column of `movie` the index is ordered by (then the id).
    var column: String {
        switch self {
        case .grossing: "grossing"
        case .rating: "rating"
        case .released: "releaseDate"
        case .title: "titleKey"
        case .titleWords: "titleWords"
        }
    }

    var definition: String {
        var held = ["year", "runtimeMinutes", "votes", "genreBits", "rating", "titleWords"]
        // A range of title words is sorted by the page's order within the index.
        if self == .titleWords { held += ["grossing", "releaseDate", "titleKey"] }
        let columns = ["apiId", column, "id"] + held.filter { $0 != column }
        return "CREATE INDEX \(name) ON movie (\(columns.joined(separator: ", ")))"
    }
}
