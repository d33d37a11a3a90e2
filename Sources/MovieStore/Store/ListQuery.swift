import Movies

/// A list of one year, as the store keeps it: the key its snapshot is stored under (`topGrossing/2016`).
public struct ListQuery: Sendable, Hashable, CustomStringConvertible {
    public var list: MovieList
    public var year: Int

    public init(_ list: MovieList, year: Int) {
        self.list = list
        self.year = year
    }

    /// The key of the list's snapshot in the store.
    public var key: String { "\(list.rawValue)/\(year)" }

    /// "the top grossing movies of 2016".
    public var description: String { "\(list.description) of \(year)" }
}
