import Movies

/// A page of `GET /api/movies` as the API sends it: `{"movies": [...], "next": "<cursor>" | null,
/// "rank": n}`, `rank` (the place of the first movie among the matches) absent from older servers.
public struct APISearchPage: Decodable, Sendable, Hashable {
    public let movies: [APIMovie]
    public let next: String?
    public let rank: Int?

    /// The domain page.
    public var page: MovieSearchPage {
        MovieSearchPage(movies: movies.map(\.movie), next: next, firstRank: rank.flatMap { $0 > 0 ? $0 : nil } ?? 1)
    }
}
