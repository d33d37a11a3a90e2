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
    /// Genres, runtime, a span of years, votes and rating the movies must have.
    public var filter: MovieFilter

    public init(text: String?, year: Int? = nil, sort: SearchSort? = nil, order: SortOrder? = nil, limit: Int = defaultLimit, cursor: String? = nil, filter: MovieFilter = .none) {
        self.text = text
        self.year = year
        self.filter = filter
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
