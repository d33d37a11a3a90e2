/// A search or listing a user asks for: words (or none, to list), a year, an order, how many,
/// and where a previous page ended. What the server and the offline store both answer.
public struct MovieSearchRequest: Sendable, Hashable {
    /// The orders a search can be given in.
    public enum Sort: String, Sendable, CaseIterable {
        case relevance, grossing, rating, released, title
    }

    /// A direction; the default is the sort's (descending, ascending for titles).
    public enum Order: String, Sendable, CaseIterable {
        case ascending = "asc"
        case descending = "desc"
    }

    public static let limits = 1...100
    public static let defaultLimit = 20

    /// The words to search for as typed; `nil` lists every movie.
    public var text: String?
    public var year: Int?
    public var sort: Sort?
    public var order: Order?
    public var limit: Int
    /// The `next` of the previous page.
    public var cursor: String?

    public init(text: String?, year: Int? = nil, sort: Sort? = nil, order: Order? = nil, limit: Int = defaultLimit, cursor: String? = nil) {
        self.text = text
        self.year = year
        self.sort = sort
        self.order = order
        self.limit = limit
        self.cursor = cursor
    }

    /// The sort in force: relevance with words, grossing without.
    public var effectiveSort: Sort { sort ?? (text == nil ? .grossing : .relevance) }

    /// The direction in force.
    public var effectiveOrder: Order { order ?? (effectiveSort == .title ? .ascending : .descending) }

    /// The query's words, folded (``SearchText/words(_:)``).
    public var words: [String] { text.map(SearchText.words) ?? [] }
}

/// One page of a search: its movies in order, and the cursor of the next page (`nil` on the last).
public struct MovieSearchPage: Sendable, Hashable {
    public var movies: [Movie]
    public var next: String?

    public init(movies: [Movie], next: String?) {
        self.movies = movies
        self.next = next
    }
}
