/// One movie in the shape the API sends it: what the server's catalogue holds and writes
/// (``ContractJSON``), and what a client reads before making a domain movie of it.
public struct CatalogMovie: Codable, Sendable, Hashable {
    public struct Actor: Codable, Sendable, Hashable {
        public var name: String

        public init(name: String) {
            self.name = name
        }
    }

    public var name: String
    public var id: Int
    public var year: Int
    /// `yyyy-MM-dd`, served as it is stored.
    public var releaseDate: String
    public var grossing: Int
    public var rating: Double
    public var cast: [Actor]
    /// What a catalogue loaded from IMDb's data sets knows beside: each absent from the JSON when
    /// unknown, so that the original API's movies are written as they always were.
    public var details = CatalogMovieDetails()

    public init(name: String, id: Int, year: Int, releaseDate: String, grossing: Int, rating: Double, cast: [Actor]) {
        self.name = name
        self.id = id
        self.year = year
        self.releaseDate = releaseDate
        self.grossing = grossing
        self.rating = rating
        self.cast = cast
    }

    private enum CodingKeys: String, CodingKey {
        case name, id, year, releaseDate, grossing, rating, cast, imdbId, originalTitle, runtimeMinutes, genres, votes
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        id = try Self.wholeNumber(.id, in: container)
        year = try Self.wholeNumber(.year, in: container)
        releaseDate = try container.decode(String.self, forKey: .releaseDate)
        grossing = try Self.wholeNumber(.grossing, in: container)
        rating = try container.decode(Double.self, forKey: .rating)
        cast = try container.decode([Actor].self, forKey: .cast)
        details.imdbID = try container.decodeIfPresent(String.self, forKey: .imdbId)
        details.originalTitle = try container.decodeIfPresent(String.self, forKey: .originalTitle)
        details.runtimeMinutes = try container.contains(.runtimeMinutes) ? Self.wholeNumber(.runtimeMinutes, in: container) : nil
        details.genres = try container.decodeIfPresent([String].self, forKey: .genres)
        details.votes = try container.contains(.votes) ? Self.wholeNumber(.votes, in: container) : nil
    }

    /// An integer field. A number with a fraction is named with its key and value, one too large
    /// for an `Int` with its key and the range (its value as read would be rounded); the decoder
    /// alone would call the whole file "not valid JSON".
    private static func wholeNumber(_ key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>) throws -> Int {
        if let value = try? container.decode(Int.self, forKey: key) { return value }
        if let number = try? container.decode(Double.self, forKey: key) {
            let reason = number.rounded() == number
                ? "a whole number from \(Int.min) to \(Int.max) is expected, not one this large"
                : "\(number) is not a whole number"
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: reason)
        }
        return try container.decode(Int.self, forKey: key)
    }

    /// Encodes the keys in the contract's order: name, id, year, releaseDate, grossing, rating, cast,
    /// then the details that are known (imdbId, originalTitle, runtimeMinutes, genres, votes).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(id, forKey: .id)
        try container.encode(year, forKey: .year)
        try container.encode(releaseDate, forKey: .releaseDate)
        try container.encode(grossing, forKey: .grossing)
        try container.encode(rating, forKey: .rating)
        try container.encode(cast, forKey: .cast)
        try container.encodeIfPresent(details.imdbID, forKey: .imdbId)
        try container.encodeIfPresent(details.originalTitle, forKey: .originalTitle)
        try container.encodeIfPresent(details.runtimeMinutes, forKey: .runtimeMinutes)
        try container.encodeIfPresent(details.genres, forKey: .genres)
        try container.encodeIfPresent(details.votes, forKey: .votes)
    }
}
