import MovieContract
/// A search or listing a user asks for: words (or none, to list), a year, an order, how many,
/// and where a previous page ended. What the server and the offline store both answer.
public struct MovieSearchRequest: Sendable, Hashable {
    public static let limits = APILimits.pageSizes
    public static let defaultLimit = APILimits.defaultPageSize
    /// The longest query, in Unicode code points.
    public static let maximumQueryLength = APILimits.queryLength
    /// The most words a query may have.
    public static let maximumWords = APILimits.queryWords

    /// The words to search for as typed; `nil` lists every movie.
    public var text: String?
    public var year: Int?
    public var sort: SearchSort?
    public var order: SortOrder?
    public var limit: Int
    /// The `next` of the previous page.
    public var cursor: String?

    public init(text: String?, year: Int? = nil, sort: SearchSort? = nil, order: SortOrder? = nil, limit: Int = defaultLimit, cursor: String? = nil) {
        self.text = text
        self.year = year
        self.sort = sort
        self.order = order
        self.limit = limit
        self.cursor = cursor
    }

    /// The sort in force: relevance with words, grossing without.
    public var effectiveSort: SearchSort { sort ?? (text == nil ? .grossing : .relevance) }

    /// The direction in force.
    public var effectiveOrder: SortOrder { order ?? effectiveSort.defaultOrder }

    /// The query's words, folded (``SearchText/words(_:)``).
    public var words: [String] { text.map(SearchText.words) ?? [] }
}

/// One page of a search: its movies in order, and the cursor of the next page (`nil` on the last).
public struct MovieSearchPage: Sendable, Hashable {
    public var movies: [Movie]
    public var next: String?
    /// The place of the page's first movie among all the matches, from 1: a later page's rows
    /// go on from where the page before ended.
    public var firstRank: Int
    /// Whether more movies match than the page holds: always when there is a `next` page; for a
    /// page found offline, which has no cursor, when the store holds more matches.
    public var hasMore: Bool

    public init(movies: [Movie], next: String?, firstRank: Int = 1, hasMore: Bool? = nil) {
        self.movies = movies
        self.next = next
        self.firstRank = firstRank
        self.hasMore = hasMore ?? (next != nil)
    }
}
