import MovieContract

/// One search or listing of the catalogue, checked: the words to match (none: every movie), the
/// year, the order, how many, and the point of the order to continue after.
///
/// A movie matches when each word but the last is one of its words (title and cast), and the
/// last is the start of one ("zoot" finds Zootopia). With words, the movies with more of them in
/// their title come first (their relevance), then the sort; without, the sort alone.
public struct MovieSearch: Sendable, Hashable {
    public var words: [String]
    /// Whether a query was given: one without words (`"*"`, `--`) matches nothing, where no query lists every movie.
    public var hasQuery: Bool
    public var year: Int?
    public var sort: SearchSort
    public var order: SortOrder
    public var limit: Int
    public var after: SearchPosition?
    /// What the movies must be beyond the words and the year.
    public var filter: MovieFilter

    public init(words: [String], year: Int? = nil, sort: SearchSort? = nil, order: SortOrder? = nil, limit: Int = MovieSearchRequest.defaultLimit, after: SearchPosition? = nil, filter: MovieFilter = .none) {
        self.words = words
        self.filter = filter
        hasQuery = !words.isEmpty
        self.year = year
        let sort = sort ?? (words.isEmpty ? .grossing : .relevance)
        self.sort = sort
        self.order = order ?? sort.defaultOrder
        self.limit = limit
        self.after = after
    }

    /// What determines the results, whatever the page: a cursor is only good for the search it came from.
    package var fingerprint: String {
        "\(hasQuery ? "q" : "-")\(words.joined(separator: " "))|\(year.map(String.init) ?? "")|\(sort.rawValue)|\(order.rawValue)" + (filter.isEmpty ? "" : "|" + filter.fingerprint)
    }

    /// Whether a movie of the catalogue passes the year and the filter.
    package func admits(_ movie: CatalogMovie) -> Bool {
        (year.map { $0 == movie.year } ?? true) && filter.admits(year: movie.year, rating: movie.rating, details: movie.details)
    }

    /// How many of the words are in the title `titleWords` (` finding dory `): the last one as a prefix.
    package func relevance(titleWords: String) -> Int { SearchText.relevance(words, titleWords: titleWords) }

    /// Whether the search can match nothing: a query without a word in it.
    package var matchesNothing: Bool { hasQuery && words.isEmpty }

    /// Whether a movie with these words (` title and cast words `) matches.
    package func matches(allWords: String) -> Bool {
        guard !matchesNothing else { return false }
        return SearchText.matches(words, allWords: allWords)
    }

    /// The movie's place in this search's order.
    package func position(of movie: CatalogMovie, indexed: SearchText.Indexed) -> SearchPosition {
        SearchPosition(relevance: words.isEmpty ? 0 : relevance(titleWords: indexed.titleWords), key: SortKey(movie, sort: sort, indexed: indexed), id: movie.id)
    }

    /// A found movie's place in this search's order, at the relevance storage found it with.
    package func position(of hit: SearchHit) -> SearchPosition {
        SearchPosition(relevance: hit.relevance, key: SortKey(hit.movie, sort: sort, indexed: SearchText.Indexed(hit.movie)), id: hit.movie.id)
    }

    /// Whether `a` comes before `b` in this search's order.
    package func precedes(_ a: SearchPosition, _ b: SearchPosition) -> Bool {
        if a.relevance != b.relevance { return a.relevance > b.relevance }
        let ascending = order == .ascending
        if a.key != b.key { return ascending ? a.key < b.key : b.key < a.key }
        return ascending ? a.id < b.id : a.id > b.id
    }
}

/// A point of a search's order: the last movie of a page.
public struct SearchPosition: Sendable, Hashable, Codable {
    public var relevance: Int
    public var key: SortKey
    public var id: Int

    package init(relevance: Int, key: SortKey, id: Int) {
        self.relevance = relevance
        self.key = key
        self.id = id
    }
}

/// The value a movie is sorted by: its grossing (also under `relevance`), rating, release date or folded title.
public enum SortKey: Sendable, Hashable, Codable, Comparable {
    case integer(Int)
    case number(Double)
    /// Compared as Unicode scalars, which is the byte order of UTF-8 (SQLite's `BINARY`, PostgreSQL's `"C"`).
    case text(String)

    package init(_ movie: CatalogMovie, sort: SearchSort, indexed: SearchText.Indexed) {
        switch sort {
        case .relevance, .grossing: self = .integer(movie.grossing)
        case .rating: self = .number(movie.rating)
        case .released: self = .text(movie.releaseDate)
        case .title: self = .text(indexed.titleKey)
        }
    }

    public static func < (lhs: SortKey, rhs: SortKey) -> Bool {
        switch (lhs, rhs) {
        case let (.integer(a), .integer(b)): a < b
        case let (.number(a), .number(b)): a < b
        case let (.text(a), .text(b)): a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
        default: false
        }
    }
}
