import MovieContract
/// One of the API's ranked lists of a year's movies: at most ``maximumCount`` movies, best first.
public enum MovieList: String, Sendable, Hashable, CaseIterable {
    /// Highest grossing first.
    case topGrossing
    /// Highest rated first.
    case topRated

    /// The years a list can be asked for.
    public static let years = 1...9999

    /// The most movies a list holds.
    public static let maximumCount = APILimits.topListCount

    /// What the list is, in words: "the top grossing movies".
    public var description: String {
        switch self {
        case .topGrossing: "the top grossing movies"
        case .topRated: "the top rated movies"
        }
    }
}
