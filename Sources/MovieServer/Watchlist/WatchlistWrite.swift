import Crypto
import Foundation
import Movies

/// A write request to a watchlist as storage applies it: whose, under which `Idempotency-Key`,
/// what the request was (hashed, to tell a repeat from another request under the same key), and
/// its changes in order.
public struct WatchlistWrite: Sendable {
    /// Whether the answer is for one movie (`PUT`/`DELETE`) or a batch.
    public enum Shape: Sendable {
        case single
        case batch
    }

    public var owner: String
    public var key: String
    public var fingerprint: [UInt8]
    public var changes: [WatchlistChangeRecord]
    public var shape: Shape
    /// The latest `changedAt` a change is ordered by: the server's clock plus
    /// ``futureMargin``. A change stamped later still counts as made then, so a device whose clock
    /// runs ahead cannot win every conflict until its time comes.
    public var latestChangeTime: Int64

    /// How far ahead of the server's clock a change's time is taken as it is: five minutes.
    public static let futureMargin: Int64 = 5 * 60 * 1000

    public init(
        owner: String, key: String, request: String, body: some DataProtocol, changes: [WatchlistChangeRecord], shape: Shape,
        receivedAt: Int64 = WatchlistClock.now()
    ) {
        var hash = SHA256()
        hash.update(data: Data(request.utf8))
        hash.update(data: [0])
        hash.update(data: body)
        self.owner = owner
        self.key = key
        fingerprint = Array(hash.finalize())
        self.changes = changes
        self.shape = shape
        latestChangeTime = receivedAt + Self.futureMargin
    }
}

/// A stored answer to a watchlist write: the status and body sent the first time, sent again
/// for a repeat of the same request.
public struct WatchlistAnswer: Sendable, Hashable {
    public var status: Int
    public var body: String

    public init(status: Int, body: String) {
        self.status = status
        self.body = body
    }
}
