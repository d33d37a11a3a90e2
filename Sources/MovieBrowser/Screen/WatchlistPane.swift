import MovieStore
import Movies

/// The Watchlist segment: the list as this machine sees it (pending changes marked), the
/// selected row, and what the last sync said.
public struct WatchlistPane: Sendable, Equatable {
    public var lines: [WatchlistView.Line] = []
    private var rows = RowSelection()
    public var selection: Int { rows.selected }
    public var firstVisible: Int { rows.firstVisible }
    /// Whether the list was read from the store yet.
    public var isLoaded = false
    public var isSyncing = false
    /// What the last sync said when it could not finish, or where the list is kept.
    public var status: String?
    /// The sign-in screen, shown instead of the list while a person signs in.
    public var signIn: BrowserSignIn?
    /// The person's ratings by movie, as the store has them: a movie's page shows its own.
    public var ratings: [Int: Int] = [:]

    public init() {}

    public var selectedLine: WatchlistView.Line? { lines.indices.contains(selection) ? lines[selection] : nil }

    /// Whether `movieID` is on the list (a pending removal is not).
    public func contains(_ movieID: Int) -> Bool {
        lines.contains { $0.movieID == movieID && $0.pending != .removing }
    }

    /// Whether the screen marks `movieID` as on the list: never while a person signs in, for the
    /// list shown then is no one's.
    public func marks(_ movieID: Int) -> Bool {
        signIn == nil && contains(movieID)
    }

    /// What `w` does to `movieID`, for the key line: `w add`, `w remove`, or `w sign in`.
    public func key(for movieID: Int?) -> String {
        guard signIn == nil else { return "w sign in" }
        guard let movieID else { return "w watchlist" }
        return contains(movieID) ? "w remove" : "w add"
    }

    public var pendingCount: Int { lines.filter { $0.pending != nil }.count }

    mutating func show(_ view: WatchlistView) {
        let selectedID = selectedLine?.movieID
        lines = view.lines
        ratings = view.ratings
        isLoaded = true
        select(lines.firstIndex { $0.movieID == selectedID } ?? selection)
    }

    mutating func move(by rows: Int) {
        select(selection + rows)
    }

    mutating func select(_ row: Int) {
        rows.select(row, count: lines.count)
    }

    /// Scrolls so that the selected line is one of the `visibleLines` on screen.
    mutating func reveal(visibleLines: Int) {
        rows.reveal(visibleRows: visibleLines, count: lines.count)
    }
}
