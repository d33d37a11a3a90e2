import Movies

/// The segmented control's segments: the two lists of a year, and the watchlist.
public enum BrowserTab: Int, Sendable, CaseIterable, Hashable {
    case topGrossing
    case topRated
    case watchlist

    public var title: String {
        switch self {
        case .topGrossing: "Top grossing"
        case .topRated: "Top rated"
        case .watchlist: "Watchlist"
        }
    }

    /// The title when the terminal is narrow.
    public var shortTitle: String {
        switch self {
        case .topGrossing: "Grossing"
        case .topRated: "Rated"
        case .watchlist: "Watch"
        }
    }

    /// The segment to the right (→, Tab), from the last back to the first.
    public var next: BrowserTab { BrowserTab(rawValue: (rawValue + 1) % Self.allCases.count) ?? .topGrossing }

    /// The segment to the left (←, Shift-Tab), from the first round to the last.
    public var previous: BrowserTab { BrowserTab(rawValue: (rawValue + Self.allCases.count - 1) % Self.allCases.count) ?? .topGrossing }

    /// The list the segment shows; `nil` for the watchlist.
    public var list: MovieList? {
        switch self {
        case .topGrossing: .topGrossing
        case .topRated: .topRated
        case .watchlist: nil
        }
    }
}
