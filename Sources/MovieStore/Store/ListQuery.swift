/// A list the API answers, and the key its snapshot is stored under (`topGrossing/2016`).
public enum ListQuery: Sendable, Hashable, CustomStringConvertible {
    case topGrossing(year: Int)
    case topRated(year: Int)

    /// The most movies a list of the contract holds.
    public static let maximumCount = 10

    /// The key of the list's snapshot in the store.
    public var key: String {
        switch self {
        case let .topGrossing(year): "topGrossing/\(year)"
        case let .topRated(year): "topRated/\(year)"
        }
    }

    public var description: String {
        switch self {
        case let .topGrossing(year): "the top grossing movies of \(year)"
        case let .topRated(year): "the top rated movies of \(year)"
        }
    }
}
