import Movies

/// A page of `GET /api/movies` as the API sends it: `{"movies": [...], "next": "<cursor>" | null}`.
public struct APISearchPage: Decodable, Sendable, Hashable {
    public let movies: [APIMovie]
    public let next: String?

    /// The domain page.
    public var page: MovieSearchPage { MovieSearchPage(movies: movies.map(\.movie), next: next) }
}
