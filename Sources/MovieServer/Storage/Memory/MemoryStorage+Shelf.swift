import Foundation
import MovieContract

extension MemoryStorage: ShelfStorage {
    public func shelfPage(owner: String, kind: String, after: String?, limit: Int) -> ShelfRead {
        shelves.page(owner: owner, kind: kind, after: after, limit: limit, feed: feed)
    }

    public func applyShelf(_ write: ShelfWrite, now: Date) -> WatchlistAnswer {
        identity.withLockedValue { state in
            if let account = write.account, !state.accountIDs.contains(account) { return .accountRemoved }
            return shelves.apply(write, now: now, feed: feed) { ids in ids.filter { catalog.movie(id: $0) != nil } }
        }
    }
}
