import Foundation
import MovieContract

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

/// A change to a watchlist made on this machine, as it waits in the outbox and as it is sent:
/// its id is made once, when the change is written, and is the same on every retry.
public struct WatchlistChangeRecord: Sendable, Hashable {
    /// The most changes one request may send: the server refuses a larger batch.
    public static let batchLimit = APILimits.watchlistBatch

    public enum Action: String, Sendable, Hashable, Codable {
        case add
        case remove
    }

    public var id: String
    public var movieID: Int
    public var action: Action
    public var note: String
    /// Milliseconds since 1970, UTC, strictly increasing on one device.
    public var changedAt: Int64
    /// The device that made it: the store's own random id.
    public var device: String

    public init(id: String, movieID: Int, action: Action, note: String, changedAt: Int64, device: String) {
        self.id = id
        self.movieID = movieID
        self.action = action
        self.note = note
        self.changedAt = changedAt
        self.device = device
    }

    /// The same change, ordered as made at `changedAt` (the server's bound on a clock too far ahead).
    public func ordered(at changedAt: Int64) -> WatchlistChangeRecord {
        WatchlistChangeRecord(id: id, movieID: movieID, action: action, note: note, changedAt: changedAt, device: device)
    }
}

/// What the server did with one sent change.
public enum WatchlistChangeOutcome: String, Sendable, Hashable, Codable {
    /// It is the newest change to its movie, and now in force.
    case applied
    /// A newer change to the same movie (from another device) was already in force.
    case superseded
    /// The server had applied this change before (an earlier attempt's answer was lost).
    case repeated
    /// The server's catalogue has no such movie.
    case unknownMovie
}
