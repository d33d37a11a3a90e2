import Movies

/// The segmented control's segments: the two lists of a year.
public enum BrowserTab: Int, Sendable, CaseIterable, Hashable {
    case topGrossing
    case topRated

    public var title: String {
        switch self {
        case .topGrossing: "Top grossing"
        case .topRated: "Top rated"
        }
    }

    /// The other segment: there are two, so ←, → and Tab all switch.
    public var other: BrowserTab { self == .topGrossing ? .topRated : .topGrossing }

    /// The list the segment shows.
    public var list: MovieList {
        switch self {
        case .topGrossing: .topGrossing
        case .topRated: .topRated
        }
    }
}
