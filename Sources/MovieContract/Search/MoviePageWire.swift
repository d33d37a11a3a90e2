/// A page of `GET /api/movies` as it travels: `{"movies": [...], "next": "<cursor>" | null,
/// "rank": n}`. `rank`, the place of the page's first movie among the matches, is absent from
/// an older server's answer.
public struct MoviePageWire: Codable, Sendable, Hashable {
    public var movies: [CatalogMovie]
    public var next: String?
    public var rank: Int?

    public init(movies: [CatalogMovie], next: String?, rank: Int?) {
        self.movies = movies
        self.next = next
        self.rank = rank
    }
}
