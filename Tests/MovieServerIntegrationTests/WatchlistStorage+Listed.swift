import MovieServer
import Movies

extension WatchlistStorage {
    /// The entries on `owner`'s list, its tombstones left out, as `GET /api/watchlist` lists them.
    func watchlist(owner: String) async throws(StorageError) -> [WatchlistEntry] {
        try await watchlistEntries(owner: owner).filter { !$0.removed }
    }
}
