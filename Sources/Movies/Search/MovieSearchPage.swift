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
