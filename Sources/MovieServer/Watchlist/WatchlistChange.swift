import Crypto
import Foundation

/// One change a client made to its owner's watchlist: add (or re-note) a movie, or remove it.
/// Its `id` is made once by the client and sent with every retry: the server applies a change
/// with a given id at most once, however often and in whatever batches it arrives.
public struct WatchlistChange: Sendable, Hashable {
    public enum Action: String, Sendable, Hashable {
        case add
        case remove
    }

    public var id: String
    public var movieID: Int
    public var action: Action
    public var note: String
    public var version: WatchlistVersion

    public init(id: String, movieID: Int, action: Action, note: String = "", version: WatchlistVersion) {
        self.id = id
        self.movieID = movieID
        self.action = action
        self.note = action == .add ? note : ""
        self.version = version
    }

    /// The entry this change makes when it wins.
    var entry: WatchlistEntry {
        WatchlistEntry(movieID: movieID, note: note, version: version, removed: action == .remove)
    }

    /// What the change says, hashed: the same id sent with another content is refused.
    var fingerprint: [UInt8] {
        let text = [String(movieID), action.rawValue, note, String(version.changedAt), version.device].joined(separator: "\u{1F}")
        return Array(SHA256.hash(data: Data(text.utf8)))
    }
}
