/// A shelf kind's bodies as they travel (`/api/ratings`, …): times are RFC 3339 in UTC with
/// milliseconds, as the watchlist's; a record is named by its key and carries the kind's value.
public enum ShelfWire<Value: Codable & Hashable & Sendable> {
    /// `GET /api/{kind}`: a page of the records and of the keys removed (with when), by key;
    /// `next`, when more follow, is the `after` of the next page.
    public struct List: Codable, Sendable, Hashable {
        public var entries: [Entry]
        public var removed: [Removal]
        public var next: String?

        public init(entries: [Entry], removed: [Removal], next: String? = nil) {
            self.entries = entries
            self.removed = removed
            self.next = next
        }
    }

    /// A record in force; `title` and `year` are the catalogue's, for the movie it is about.
    public struct Entry: Codable, Sendable, Hashable {
        public var key: String
        public var value: Value
        public var changedAt: String
        public var title: String?
        public var year: Int?

        public init(key: String, value: Value, changedAt: String, title: String? = nil, year: Int? = nil) {
            self.key = key
            self.value = value
            self.changedAt = changedAt
            self.title = title
            self.year = year
        }
    }

    /// A record removed, and when.
    public struct Removal: Codable, Sendable, Hashable {
        public var key: String
        public var changedAt: String

        public init(key: String, changedAt: String) {
            self.key = key
            self.changedAt = changedAt
        }
    }

    /// The body of `POST /api/{kind}/changes`: 1 to ``APILimits/watchlistBatch`` changes, in order.
    public struct Batch: Codable, Sendable, Hashable {
        public var changes: [Change]

        public init(changes: [Change]) {
            self.changes = changes
        }
    }

    /// One change: a value sets the record, no value removes it.
    public struct Change: Codable, Sendable, Hashable {
        public var id: String
        public var key: String
        public var value: Value?
        public var changedAt: String
        public var device: String

        public init(id: String, key: String, value: Value?, changedAt: String, device: String) {
            self.id = id
            self.key = key
            self.value = value
            self.changedAt = changedAt
            self.device = device
        }
    }
}

/// The answer to a shelf kind's batch: one result per change, in the batch's order, as the
/// watchlist's (``WatchlistWire/Result``) but naming the record by its key.
public struct ShelfResults: Codable, Sendable, Hashable {
    public struct Result: Codable, Sendable, Hashable {
        public var id: String
        public var key: String
        /// A ``WatchlistChangeOutcome``'s raw value (`unknownMovie` for a movie the catalogue lacks).
        public var outcome: String
        /// The time the server orders the change by, for one applied or superseded.
        public var changedAt: String?
        /// For a `repeated` change: what became of it when first taken.
        public var firstOutcome: String?

        public init(id: String, key: String, outcome: String, changedAt: String?, firstOutcome: String?) {
            self.id = id
            self.key = key
            self.outcome = outcome
            self.changedAt = changedAt
            self.firstOutcome = firstOutcome
        }
    }

    public var results: [Result]

    public init(results: [Result]) {
        self.results = results
    }
}
