import Foundation
import MovieContract

/// One event of the server's feed (`GET /api/events`): a change to one person's watchlist, a new
/// version of the catalogue, or (for the instances only) a person's sign-in ended. Its sequence
/// is the stream's `id:`, the cursor a client resumes from; sequences grow in the order the
/// changes were committed, on every instance.
public struct FeedEvent: Sendable, Hashable {
    /// What changed.
    public enum Kind: String, Sendable, Hashable {
        /// One movie of one person's watchlist: `FeedWire.WatchlistChange` (`MovieContract`).
        case watchlist
        /// The catalogue: `FeedWire.CatalogChange` (`MovieContract`).
        case catalog
        /// One record of a person's shelf beyond the watchlist: `FeedWire.ShelfChange`.
        case shelf
        /// One or more of a person's sign-ins ended (signed out, password changed, account
        /// removed): every instance checks that person's open streams at once. Never written to
        /// a stream; an instance that does not know the kind skips it.
        case signOut = "sign-out"

        /// The stream's name for it; nil for what no reader is sent.
        var event: FeedWire.Event? {
            switch self {
            case .watchlist: .watchlist
            case .catalog: .catalog
            case .shelf: .shelf
            case .signOut: nil
            }
        }
    }

    public var sequence: Int64
    /// The watchlist owner whose change it is (``WatchlistOwner``); `nil` for the catalogue's.
    public var owner: String?
    public var kind: Kind
    /// The event's `data:`, one line of JSON.
    public var data: String

    public init(sequence: Int64, owner: String?, kind: Kind, data: String) {
        self.sequence = sequence
        self.owner = owner
        self.kind = kind
        self.data = data
    }

    /// Whether a subscriber that reads as `owner` (nil: an application) receives it.
    package func isVisible(to owner: String?) -> Bool {
        kind.event != nil && (self.owner == nil || self.owner == owner)
    }
}

/// An event not yet written: its sequence comes from the log that keeps it.
public struct NewFeedEvent: Sendable, Hashable {
    public var owner: String?
    public var kind: FeedEvent.Kind
    public var data: String

    /// The event for an entry a watchlist write changed.
    package static func watchlist(owner: String, entry: WatchlistEntry) -> NewFeedEvent {
        let change = FeedWire.WatchlistChange(
            movieId: entry.movieID, note: entry.note, changedAt: WatchlistClock.string(entry.version.changedAt),
            device: entry.version.device, removed: entry.removed
        )
        return NewFeedEvent(owner: owner, kind: .watchlist, data: change.json)
    }

    /// The event for an entry a shelf write of `kind` changed: the value written as the kind's
    /// compact JSON, as kept.
    package static func shelf(owner: String, kind: String, entry: ShelfEntry) -> NewFeedEvent {
        var output = "{\"kind\":"
        ContractJSON.writeString(kind, to: &output)
        output += ",\"key\":"
        ContractJSON.writeString(entry.key, to: &output)
        if !entry.removed { output += ",\"value\":" + entry.value }
        output += ",\"changedAt\":"
        ContractJSON.writeString(WatchlistClock.string(entry.version.changedAt), to: &output)
        output += ",\"device\":"
        ContractJSON.writeString(entry.version.device, to: &output)
        return NewFeedEvent(owner: owner, kind: .shelf, data: output + ",\"removed\":\(entry.removed)}")
    }

    /// The event that tells every instance a sign-in of the account `accountID` ended.
    package static func signOut(accountID: String) -> NewFeedEvent {
        NewFeedEvent(owner: WatchlistOwner.account(id: accountID), kind: .signOut, data: "{}")
    }

    /// The event for a catalogue now at `version`.
    package static func catalog(version: Int64) -> NewFeedEvent {
        NewFeedEvent(owner: nil, kind: .catalog, data: FeedWire.CatalogChange(version: version).json)
    }
}
