import Foundation
import Movies

/// A watchlist as this machine sees it: the server's last known state with the changes still
/// waiting in the outbox applied on top, each of those marked.
public struct WatchlistView: Sendable, Hashable {
    /// One movie on the list, or one whose removal is still pending.
    public struct Line: Sendable, Hashable {
        public enum Pending: String, Sendable, Hashable {
            /// Added or re-noted here, not yet acknowledged by the server.
            case adding
            /// Removed here, not yet acknowledged: shown until it is.
            case removing
        }

        public var movieID: Int
        public var note: String
        public var changedAt: Int64
        public var pending: Pending?
        /// The movie as stored for this API, when it is.
        public var movie: Movie?
        /// The title and year the server's list gave, for a movie not stored here.
        public var title: String?
        public var year: Int?

        public init(movieID: Int, note: String, changedAt: Int64, pending: Pending?, movie: Movie? = nil, title: String? = nil, year: Int? = nil) {
            self.movieID = movieID
            self.note = note
            self.changedAt = changedAt
            self.pending = pending
            self.movie = movie
            self.title = title
            self.year = year
        }

        /// "Deadpool (2016)": the stored movie's, else the server's list's; nil when neither is known.
        public var titleAndYear: String? {
            if let movie { return "\(movie.name) (\(movie.year))" }
            guard let title else { return nil }
            return year.map { "\(title) (\($0))" } ?? title
        }
    }

    /// Newest change first.
    public var lines: [Line]
    /// How many changes wait in the outbox.
    public var pendingChanges: Int
    /// When the server's state was last pulled; `nil` if never.
    public var pulledAt: Date?
    /// Whether the server said it keeps no watchlist (the list lives on this machine only).
    public var serverHasNone: Bool
    /// The rest of the person's shelf as this machine sees it (pending changes included).
    public var shelf = ShelfOverview()

    /// The person's ratings by movie: what a movie's page shows beside whether it is on the list.
    public var ratings: [Int: Int] {
        Dictionary(shelf.ratings.map { ($0.movieID, $0.score) }) { first, _ in first }
    }

    public init(lines: [Line], pendingChanges: Int, pulledAt: Date?, serverHasNone: Bool) {
        self.lines = lines
        self.pendingChanges = pendingChanges
        self.pulledAt = pulledAt
        self.serverHasNone = serverHasNone
    }

    /// The movies on the list, pending removals left out.
    public var movieIDs: [Int] { lines.filter { $0.pending != .removing }.map(\.movieID) }
}
