import MovieStore
import Movies

/// The Watchlist segment: the list as this machine sees it (pending changes marked), the
/// selected row, and what the last sync said.
public struct WatchlistPane: Sendable, Equatable {
    public var lines: [WatchlistView.Line] = []
    public var selection = 0
    public var firstVisible = 0
    /// Whether the list was read from the store yet.
    public var isLoaded = false
    public var isSyncing = false
    /// What the last sync said when it could not finish, or where the list is kept.
    public var status: String?

    public init() {}

    public var selectedLine: WatchlistView.Line? { lines.indices.contains(selection) ? lines[selection] : nil }

    /// Whether `movieID` is on the list (a pending removal is not).
    public func contains(_ movieID: Int) -> Bool {
        lines.contains { $0.movieID == movieID && $0.pending != .removing }
    }

    public var pendingCount: Int { lines.filter { $0.pending != nil }.count }

    mutating func show(_ view: WatchlistView) {
        let selectedID = selectedLine?.movieID
        lines = view.lines
        isLoaded = true
        select(lines.firstIndex { $0.movieID == selectedID } ?? selection)
    }

    mutating func move(by rows: Int) {
        select(selection + rows)
    }

    mutating func select(_ row: Int) {
        selection = lines.isEmpty ? 0 : min(max(0, row), lines.count - 1)
    }

    mutating func reveal(visibleRows: Int) {
        let rows = max(1, visibleRows)
        if selection < firstVisible { firstVisible = selection }
        if selection >= firstVisible + rows { firstVisible = selection - rows + 1 }
        firstVisible = max(0, min(firstVisible, max(0, lines.count - rows)))
    }
}
