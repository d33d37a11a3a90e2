/// The watchlist's bodies as they travel: times are RFC 3339 in UTC with milliseconds
/// (`2026-11-24T09:30:00.000Z`), movies are named by id. The server reads the requests and writes
/// the answers with these types; the client writes the requests and reads the answers with them.
public enum WatchlistWire {
    /// `GET /api/watchlist`: the entries, newest change first, and the movies removed, with when.
    public struct List: Codable, Sendable, Hashable {
        public var entries: [Entry]
        /// Absent from an older server's answer.
        public var removed: [Removal]?

        public init(entries: [Entry], removed: [Removal]?) {
            self.entries = entries
            self.removed = removed
        }
    }

    /// A movie on the list; `title` and `year` are the catalogue's, absent for a movie it no longer holds.
    public struct Entry: Codable, Sendable, Hashable {
        public var movieId: Int
        public var note: String
        public var changedAt: String
        public var title: String?
        public var year: Int?

        public init(movieId: Int, note: String, changedAt: String, title: String? = nil, year: Int? = nil) {
            self.movieId = movieId
            self.note = note
            self.changedAt = changedAt
            self.title = title
            self.year = year
        }
    }

    /// A movie that left the list, and when.
    public struct Removal: Codable, Sendable, Hashable {
        public var movieId: Int
        public var changedAt: String

        public init(movieId: Int, changedAt: String) {
            self.movieId = movieId
            self.changedAt = changedAt
        }
    }

    /// The body of `PUT` and `DELETE /api/watchlist/{id}`: every key optional, no note on a removal.
    public struct SingleChange: Codable, Sendable, Hashable {
        public var note: String?
        public var changedAt: String?
        public var device: String?

        public init(note: String? = nil, changedAt: String? = nil, device: String? = nil) {
            self.note = note
            self.changedAt = changedAt
            self.device = device
        }
    }

    /// The body of `POST /api/watchlist/changes`: 1 to ``APILimits/watchlistBatch`` changes.
    public struct Batch: Codable, Sendable, Hashable {
        public var changes: [Change]

        public init(changes: [Change]) {
            self.changes = changes
        }
    }

    /// One change of a batch: `action` is ``Action/add`` or ``Action/remove``; a removal has no note.
    public struct Change: Codable, Sendable, Hashable {
        public var id: String
        public var movieId: Int
        public var action: String
        public var note: String?
        public var changedAt: String
        public var device: String?

        public init(id: String, movieId: Int, action: String, note: String?, changedAt: String, device: String?) {
            self.id = id
            self.movieId = movieId
            self.action = action
            self.note = note
            self.changedAt = changedAt
            self.device = device
        }
    }

    /// What a change does.
    public enum Action: String, Sendable, CaseIterable {
        case add
        case remove
    }

    /// The answer to a batch: one result per change, in the batch's order.
    public struct Results: Codable, Sendable, Hashable {
        public var results: [Result]

        public init(results: [Result]) {
            self.results = results
        }
    }

    /// What became of one change. `changedAt`, for a change applied or superseded, is the time the
    /// server orders it by; absent otherwise, and from an older server.
    public struct Result: Codable, Sendable, Hashable {
        public var id: String
        public var movieId: Int
        public var outcome: String
        public var changedAt: String?
        /// For a `repeated` change: what became of it when first taken (`applied`, `superseded`,
        /// `unknownMovie`); absent from an older server's answer.
        public var firstOutcome: String?

        public init(id: String, movieId: Int, outcome: String, changedAt: String?, firstOutcome: String? = nil) {
            self.id = id
            self.movieId = movieId
            self.outcome = outcome
            self.changedAt = changedAt
            self.firstOutcome = firstOutcome
        }
    }
}
