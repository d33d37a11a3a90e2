/// What a movie's page can say beyond the original API's fields, as IMDb's data sets give it:
/// each nil when the catalogue does not know it (the original ten movies know none).
public struct CatalogMovieDetails: Sendable, Hashable {
    /// IMDb's id (`tt0111161`).
    public var imdbID: String?
    /// The title in its own language, when it differs.
    public var originalTitle: String?
    public var runtimeMinutes: Int?
    /// IMDb's genres, at most three, as IMDb names them (`Drama`, `Sci-Fi`).
    public var genres: [String]?
    /// How many people rated it on IMDb.
    public var votes: Int?

    public init(imdbID: String? = nil, originalTitle: String? = nil, runtimeMinutes: Int? = nil, genres: [String]? = nil, votes: Int? = nil) {
        self.imdbID = imdbID
        self.originalTitle = originalTitle
        self.runtimeMinutes = runtimeMinutes
        self.genres = genres
        self.votes = votes
    }

    /// The genres IMDb's data sets use: a filter names one of these.
    public static let knownGenres = [
        "Action", "Adult", "Adventure", "Animation", "Biography", "Comedy", "Crime", "Documentary", "Drama", "Family", "Fantasy",
        "Film-Noir", "Game-Show", "History", "Horror", "Music", "Musical", "Mystery", "News", "Reality-TV", "Romance", "Sci-Fi",
        "Short", "Sport", "Talk-Show", "Thriller", "War", "Western",
    ]

    /// The longest runtime a movie may have, in minutes: IMDb lists experimental films of days.
    public static let longestRuntime = 60_000

    /// Why these details cannot be a movie's, or nil when they can.
    public var problem: String? {
        if let imdbID, !(imdbID.hasPrefix("tt") && (9...14).contains(imdbID.count) && imdbID.dropFirst(2).allSatisfy { $0.isASCII && $0.isNumber }) {
            return "has imdbId '\(imdbID.prefix(20))', expected tt and 7 to 12 digits"
        }
        if let originalTitle, originalTitle.isEmpty || originalTitle.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "has an empty originalTitle or a control character in it"
        }
        if let runtimeMinutes, !(1...Self.longestRuntime).contains(runtimeMinutes) {
            return "has runtimeMinutes \(runtimeMinutes), expected 1 to \(Self.longestRuntime)"
        }
        if let genres, let unknown = genres.first(where: { !Self.knownGenres.contains($0) }) {
            return "has the genre '\(unknown.prefix(40))', not one of IMDb's (\(Self.knownGenres.joined(separator: ", ")))"
        }
        if let genres, genres.count > 3 || Set(genres).count != genres.count { return "has more than three genres, or one twice" }
        if let votes, votes < 0 { return "has a negative number of votes" }
        return nil
    }
}
