import MovieContract

/// Search and listing of the catalogue, a page at a time (``MovieSearch``).
public protocol SearchStorage: Sendable {
    /// The first `search.limit + 1` movies of `search`, in its order, after its position (the one
    /// more tells whether there is a next page).
    func search(_ search: MovieSearch) async throws(StorageError) -> [SearchHit]

    /// What a search of the folded `words` of `year` probably meant (`DidYouMean`, up to
    /// `latestYear` for a number read as a year), from the index searches are answered from;
    /// quick, and without a suggestion while a database's index is not ready.
    func suggestion(for words: [String], year: Int?, latestYear: Int) async throws(StorageError) -> SuggestionWire.Answer

    /// Begins making what searches are answered from (a database's in-process index), so that the
    /// first searches need not wait for it; they are answered meanwhile.
    func prepareSearch()

    /// Whether searches are answered at their full speed: false from a start until a database's
    /// in-process index is first read or made, so that `/health/ready` keeps the instance out of
    /// rotation for that time (a fraction of a second with a stored index).
    var isSearchReady: Bool { get }
}

extension SearchStorage {
    public func prepareSearch() {}
    public var isSearchReady: Bool { true }
}
