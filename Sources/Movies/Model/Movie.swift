import Foundation

/// A movie as the app knows it: what it is called, when it came out, how it did, and who is in it.
///
/// `Movie` is a plain value. It knows nothing of where it came from (an API, a store, a fixture);
/// the modules that fetch or keep movies convert their own representations into it.
public struct Movie: Sendable, Hashable, Codable, Identifiable {
    public var id: Int
    public var name: String
    public var year: Int
    /// The release day, as midnight UTC of that calendar date.
    public var releaseDate: Date
    /// Box office grossing, in whole US dollars.
    public var grossing: Int
    public var rating: Double
    /// The cast in billing order.
    public var cast: [MovieActor]
    /// What the catalogue knows beside; nil when it knows nothing more.
    public var details: MovieDetails?

    public init(
        id: Int,
        name: String,
        year: Int,
        releaseDate: Date,
        grossing: Int,
        rating: Double,
        cast: [MovieActor],
        details: MovieDetails? = nil
    ) {
        self.id = id
        self.name = name
        self.year = year
        self.releaseDate = releaseDate
        self.grossing = grossing
        self.rating = rating
        self.cast = cast
        self.details = details
    }
}
