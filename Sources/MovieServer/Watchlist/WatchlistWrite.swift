import Crypto
import Foundation
import MovieContract

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
    /// The id of the account whose list it is: once that account is removed, storage refuses
    /// the write whole (``WatchlistAnswer/accountRemoved``), in the transaction that would have
    /// made it, so that no write racing a removal leaves rows under the removed account's owner.
    public var account: String?
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
        owner: String, account: String? = nil, key: String, request: String, body: some DataProtocol, changes: [WatchlistChangeRecord],
        shape: Shape, receivedAt: Int64 = WatchlistClock.now()
    ) {
        var hash = SHA256()
        hash.update(data: Data(request.utf8))
        hash.update(data: [0])
        hash.update(data: body)
        self.owner = owner
        self.account = account
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

extension WatchlistAnswer {
    /// What storage answers a write whose ``WatchlistWrite/account`` has been removed; never
    /// kept under its key.
    public static let accountRemoved = WatchlistAnswer(status: 401, body: ErrorAnswer.accountRemoved.json)
}
