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
        case name, id, year, releaseDate, grossing, rating, cast
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

    /// Encodes the keys in the contract's order: name, id, year, releaseDate, grossing, rating, cast.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(id, forKey: .id)
        try container.encode(year, forKey: .year)
        try container.encode(releaseDate, forKey: .releaseDate)
        try container.encode(grossing, forKey: .grossing)
        try container.encode(rating, forKey: .rating)
        try container.encode(cast, forKey: .cast)
    }
}
