import Foundation
import MovieContract

extension MemoryStorage: WatchlistStorage {
    public func watchlistRead(owner: String) -> WatchlistRead {
        watchlists.read(owner: owner, feed: feed)
    }

    /// The entries of `owner`'s watchlist (not its tombstones), the newest change first.
    public func watchlist(owner: String) -> [WatchlistEntry] {
        watchlistRead(owner: owner).entries.filter { !$0.removed }
    }

    public func watchlistSize(owner: String) -> Int {
        watchlist(owner: owner).count
    }

    public func applyWatchlist(_ write: WatchlistWrite, now: Date) -> WatchlistAnswer {
        // Under the identity's lock, as a removal is: a write either lands before the removal
        // takes the list, or finds the account gone.
        identity.withLockedValue { state in
            if let account = write.account, !state.accountIDs.contains(account) { return .accountRemoved }
            return watchlists.apply(write, now: now, feed: feed) { ids in ids.filter { catalog.movie(id: $0) != nil } }
        }
    }

    public func moveWatchlist(from owner: String, toAccount name: String) -> Int {
        guard let account = identity.withLockedValue({ $0.accounts[name] }) else { return 0 }
        return watchlists.move(from: owner, to: WatchlistOwner.account(id: account.id), now: Date(), feed: feed)
    }
}
