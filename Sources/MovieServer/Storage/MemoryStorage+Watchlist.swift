import Foundation
import Movies

extension MemoryStorage: WatchlistStorage {
    public func watchlist(owner: String) -> [WatchlistEntry] {
        watchlists.list(owner: owner)
    }

    public func applyWatchlist(_ write: WatchlistWrite, now: Date) -> WatchlistAnswer {
        watchlists.apply(write, now: now, feed: feed) { ids in ids.filter { catalog.movie(id: $0) != nil } }
    }
}
