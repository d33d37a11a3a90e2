/// The live feed (`GET /api/events`) as it travels: server-sent events whose `event:` is one of
/// ``Event`` and whose `data:` is one line of JSON, of the shape each case names.
public enum FeedWire {
    /// The events a stream carries.
    public enum Event: String, Sendable, CaseIterable {
        /// The stream is open: ``Ready``.
        case ready
        /// The events after the stream's cursor are gone; fetch what is shown again: ``Reset``.
        case reset
        /// One movie of the reader's watchlist changed: ``WatchlistChange``.
        case watchlist
        /// The catalogue has a new version: ``CatalogChange``.
        case catalog
        /// One record of the reader's shelf beyond the watchlist (a rating, …) changed:
        /// ``ShelfChange``.
        case shelf
    }

    /// `{"resumed": …}`: whether the stream went on from the reader's cursor.
    public struct Ready: Codable, Sendable, Hashable {
        public var resumed: Bool

        public init(resumed: Bool) {
            self.resumed = resumed
        }

        public var json: String { "{\"resumed\":\(resumed)}" }
    }

    /// `{"reason": …}`: why the reader must fetch again.
    public struct Reset: Codable, Sendable, Hashable {
        public var reason: String

        public init(reason: String) {
            self.reason = reason
        }

        public var json: String {
            var output = "{\"reason\":"
            ContractJSON.writeString(reason, to: &output)
            return output + "}"
        }
    }

    /// `{"movieId", "note", "changedAt", "device", "removed"}`: one movie of one watchlist.
    public struct WatchlistChange: Codable, Sendable, Hashable {
        public var movieId: Int
        public var note: String
        public var changedAt: String
        public var device: String
        public var removed: Bool

        public init(movieId: Int, note: String, changedAt: String, device: String, removed: Bool) {
            self.movieId = movieId
            self.note = note
            self.changedAt = changedAt
            self.device = device
            self.removed = removed
        }

        public var json: String {
            var output = "{\"movieId\":\(movieId),\"note\":"
            ContractJSON.writeString(note, to: &output)
            output += ",\"changedAt\":"
            ContractJSON.writeString(changedAt, to: &output)
            output += ",\"device\":"
            ContractJSON.writeString(device, to: &output)
            return output + ",\"removed\":\(removed)}"
        }
    }

    /// `{"kind", "key", "value", "changedAt", "device", "removed"}`: one record of one kind of one
    /// person's shelf; `value` is the kind's (``ShelfKind/Value``), absent from a removal.
    public struct ShelfChange<Value: Codable & Hashable & Sendable>: Codable, Sendable, Hashable {
        public var kind: String
        public var key: String
        public var value: Value?
        public var changedAt: String
        public var device: String
        public var removed: Bool

        public init(kind: String, key: String, value: Value?, changedAt: String, device: String, removed: Bool) {
            self.kind = kind
            self.key = key
            self.value = value
            self.changedAt = changedAt
            self.device = device
            self.removed = removed
        }
    }

    /// The kind a ``ShelfChange`` names, read before its value.
    public struct ShelfChangeKind: Codable, Sendable, Hashable {
        public var kind: String
    }

    /// `{"version": …}`: the catalogue's new version.
    public struct CatalogChange: Codable, Sendable, Hashable {
        public var version: Int64

        public init(version: Int64) {
            self.version = version
        }

        public var json: String { "{\"version\":\(version)}" }
    }
}
