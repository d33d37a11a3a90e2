import Foundation
import MovieContract

/// Each owner's watchlist on the server, written through ``WatchlistPlan``.
public protocol WatchlistStorage: Sendable {
    /// Every entry of `owner`'s watchlist, its tombstones (`removed`) included, the newest change
    /// first (a removal's time is what a device needs to tell a later change from an earlier one),
    /// with the feed log's last sequence, read at one moment: the list holds every change of the
    /// events up to it, and none of those after.
    func watchlistRead(owner: String) async throws(StorageError) -> WatchlistRead

    /// Applies `write` as ``WatchlistPlan`` decides, in one transaction (its answer kept under its
    /// key with it), and returns the answer: of concurrent writes with the same key or change
    /// ids, on any instance, each change is applied once.
    func applyWatchlist(_ write: WatchlistWrite, now: Date) async throws(StorageError) -> WatchlistAnswer

    /// How many movies are on `owner`'s watchlist now: its removals not counted.
    func watchlistSize(owner: String) async throws(StorageError) -> Int

    /// Gives the watchlist of `owner` (a list kept before accounts, under a client id) to the
    /// account's list: per movie the later change wins, and `owner`'s list is then empty.
    /// Returns how many entries moved.
    func moveWatchlist(from owner: String, toAccount name: String) async throws(StorageError) -> Int
}

extension WatchlistStorage {
    /// The entries of ``watchlistRead(owner:)``, without the position.
    public func watchlistEntries(owner: String) async throws(StorageError) -> [WatchlistEntry] {
        try await watchlistRead(owner: owner).entries
    }
}
