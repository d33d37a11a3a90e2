/// Search and listing of the catalogue, a page at a time (``MovieSearch``).
public protocol SearchStorage: Sendable {
    /// The first `search.limit + 1` movies of `search`, in its order, after its position (the one
    /// more tells whether there is a next page).
    func search(_ search: MovieSearch) async throws(StorageError) -> [SearchHit]
}
