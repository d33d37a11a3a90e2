/// Search and listing of the catalogue, a page at a time (``MovieSearch``).
public protocol SearchStorage: Sendable {
    /// The first `search.limit + 1` movies of `search`, in its order, after its position (the one
    /// more tells whether there is a next page).
    func search(_ search: MovieSearch) async throws(StorageError) -> [SearchHit]

    /// Begins making what searches are answered from (a database's in-process index), so that the
    /// first searches need not wait for it; they are answered meanwhile.
    func prepareSearch()
}

extension SearchStorage {
    public func prepareSearch() {}
}
