import Foundation

/// A movie on a watchlist as the server holds it: the movie's id, the owner's note, when it was
/// last changed (on the client that changed it), and the movie's title and year when the server
/// gave them (its list does; its live feed does not).
public struct WatchlistItem: Sendable, Hashable, Codable {
    public var movieID: Int
    public var note: String
    /// Milliseconds since 1970, UTC.
    public var changedAt: Int64
    public var title: String?
    public var year: Int?

    public init(movieID: Int, note: String, changedAt: Int64, title: String? = nil, year: Int? = nil) {
        self.movieID = movieID
        self.note = note
        self.changedAt = changedAt
        self.title = title
        self.year = year
    }
}
