import MovieContract
/// A movie a search found, with its relevance to the search's words (0 without words).
public struct SearchHit: Sendable, Hashable {
    public var movie: CatalogMovie
    public var relevance: Int

    public init(movie: CatalogMovie, relevance: Int) {
        self.movie = movie
        self.relevance = relevance
    }
}
