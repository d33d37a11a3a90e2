import Foundation
import MovieContract
import Movies

/// A movie exactly as the API sends it.
///
/// `releaseDate` must be a real `yyyy-MM-dd` day; `rating` may be an integer or a decimal.
/// A value that does not fit fails decoding with its JSON path.
public struct APIMovie: Decodable, Sendable, Hashable {
    public let id: Int
    public let name: String
    public let year: Int
    public let releaseDate: Date
    public let grossing: Int
    public let rating: Double
    public let cast: [APIMovieActor]

    private enum CodingKeys: String, CodingKey {
        case id, name, year, releaseDate, grossing, rating, cast
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        year = try container.decode(Int.self, forKey: .year)
        let dateText = try container.decode(String.self, forKey: .releaseDate)
        guard let date = CalendarDate.date(from: dateText) else {
            throw DecodingError.dataCorruptedError(
                forKey: .releaseDate, in: container,
                debugDescription: "expected a yyyy-MM-dd date, found '\(dateText.prefix(40))'"
            )
        }
        releaseDate = date
        grossing = try container.decode(Int.self, forKey: .grossing)
        rating = try container.decode(Double.self, forKey: .rating)
        cast = try container.decode([APIMovieActor].self, forKey: .cast)
    }

    /// The domain value of this movie.
    public var movie: Movie {
        Movie(
            id: id, name: name, year: year, releaseDate: releaseDate,
            grossing: grossing, rating: rating, cast: cast.map(\.actor)
        )
    }
}
