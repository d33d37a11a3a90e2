/// A change to a watchlist as a device makes it: kept in the device's outbox, sent as it was
/// made, and journaled by the server under its id, which is made once, when the change is
/// written, and is the same on every retry. The device's store and the server order a movie's
/// changes by the same rule, so the type is the contract's.
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
