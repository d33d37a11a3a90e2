import Movies

/// The segmented control's segments: the two lists of a year, then the person's shelf (their
/// ratings, their diary, their lists and their watchlist).
public enum BrowserTab: Int, Sendable, CaseIterable, Hashable {
    case topGrossing
    case topRated
    case ratings
    case diary
    case lists
    case watchlist

    public var title: String {
        switch self {
        case .topGrossing: "Top grossing"
        case .topRated: "Top rated"
        case .ratings: "Ratings"
        case .diary: "Diary"
        case .lists: "Lists"
        case .watchlist: "Watchlist"
        }
    }

    /// The title when the terminal is narrow.
    public var shortTitle: String {
        switch self {
        case .topGrossing: "Grossing"
        case .topRated: "Rated"
        case .ratings: "Stars"
        case .diary: "Diary"
        case .lists: "Lists"
        case .watchlist: "Watch"
        }
    }

    /// The segment to the right (→, Tab), from the last back to the first.
    public var next: BrowserTab { BrowserTab(rawValue: (rawValue + 1) % Self.allCases.count) ?? .topGrossing }

    /// The segment to the left (←, Shift-Tab), from the first round to the last.
    public var previous: BrowserTab { BrowserTab(rawValue: (rawValue + Self.allCases.count - 1) % Self.allCases.count) ?? .topGrossing }

    /// The segment of digit key `n` (1 is the first), when there is one.
    public init?(digit: Character) {
        guard let number = digit.wholeNumberValue, digit.isASCII, (1...Self.allCases.count).contains(number) else { return nil }
        self.init(rawValue: number - 1)
    }

    /// The list the segment shows; `nil` for the person's own segments.
    public var list: MovieList? {
        switch self {
        case .topGrossing: .topGrossing
        case .topRated: .topRated
        case .ratings, .diary, .lists, .watchlist: nil
        }
    }

    /// Whether the segment shows the person's shelf beyond the watchlist, as the store holds it.
    public var isShelf: Bool { self == .ratings || self == .diary || self == .lists }
}
