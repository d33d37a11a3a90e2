/// The orders a search or a listing can be given in; each ends with the movie id, so that the
/// order is total and a page boundary is one point of it.
public enum SearchSort: String, Sendable, CaseIterable {
    /// With a query: the movies with more query words in their title first, then grossing.
    case relevance
    case grossing
    case rating
    /// By release date.
    case released
    /// By title, folded (case and diacritics ignored), compared letter by letter as Unicode.
    case title

    /// The direction a sort takes when none is asked for: the most first, titles from A.
    public var defaultOrder: SortOrder { self == .title ? .ascending : .descending }
}

/// A direction of a ``SearchSort``; the id breaks ties in the same direction.
public enum SortOrder: String, Sendable, CaseIterable {
    case ascending = "asc"
    case descending = "desc"
}
