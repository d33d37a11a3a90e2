import Foundation

/// The lock file beside a store through which the processes that send its outboxes (the
/// watchlist's and the shelf's) take turns.
enum StoreSyncLock {
    static func url(for store: URL) -> URL {
        store.deletingLastPathComponent().appendingPathComponent(store.lastPathComponent + "-watchlist-lock")
    }
}
