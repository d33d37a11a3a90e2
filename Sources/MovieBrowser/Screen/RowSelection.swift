/// The selected row of a table and the first row on screen, kept within the table's rows: what
/// the list segments, the search results and the Watchlist segment share.
struct RowSelection: Sendable, Equatable {
    var selected = 0
    var firstVisible = 0

    mutating func select(_ row: Int, count: Int) {
        selected = count == 0 ? 0 : min(max(0, row), count - 1)
    }

    /// Scrolls so that the selected row is one of the `visibleRows` on screen.
    mutating func reveal(visibleRows: Int, count: Int) {
        let rows = max(1, visibleRows)
        if selected < firstVisible { firstVisible = selected }
        if selected >= firstVisible + rows { firstVisible = selected - rows + 1 }
        firstVisible = max(0, min(firstVisible, max(0, count - rows)))
    }
}
