import Foundation
import MarqueeTestSupport
import MovieContract
import MovieServer
import MovieStore
import Movies
import NetworkTestSupport
import ServerTestSupport
import Testing

/// Watchlist writes made straight into a storage, as another device's would arrive.
enum FeedWrites {
    static func change(_ id: String, movie: Int, _ action: WatchlistChangeRecord.Action, at time: Int64, on storage: MemoryStorage) -> WatchlistWrite {
        let record = WatchlistChangeRecord(id: id, movieID: movie, action: action, note: action == .add ? "note \(id)" : "", changedAt: time, device: "other-device")
        return WatchlistWrite(owner: storage.owner(ofAccount: "alice"), key: id, request: "PUT", body: Data(id.utf8), changes: [record], shape: .single)
    }
}
