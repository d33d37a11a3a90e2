/// What a movie's page says beyond the original API's fields, when the catalogue knows it (one
/// loaded from IMDb's data sets does): its IMDb id, its title in its own language, its runtime,
/// its genres and how many people rated it.
public struct MovieDetails: Sendable, Hashable, Codable {
    public var imdbID: String?
    public var originalTitle: String?
    public var runtimeMinutes: Int?
    public var genres: [String]?
    public var votes: Int?

    public init(imdbID: String? = nil, originalTitle: String? = nil, runtimeMinutes: Int? = nil, genres: [String]? = nil, votes: Int? = nil) {
        self.imdbID = imdbID
        self.originalTitle = originalTitle
        self.runtimeMinutes = runtimeMinutes
        self.genres = genres
        self.votes = votes
    }

    /// Whether nothing is known.
    public var isEmpty: Bool { self == MovieDetails() }

    private enum CodingKeys: String, CodingKey {
        case imdbID = "imdbId", originalTitle, runtimeMinutes, genres, votes
    }
}
