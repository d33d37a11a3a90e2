import Crypto
import Foundation
import MovieContract

/// A write to one kind of an owner's shelf as storage applies it: whose, which kind, under which
/// `Idempotency-Key`, the request hashed (to tell a repeat from another request under the same
/// key), and its changes in order. The answer is kept and sent again as a watchlist write's is.
public struct ShelfWrite: Sendable {
    public var owner: String
    /// The account whose shelf it is: once it is removed, storage refuses the write whole.
    public var account: String?
    /// The `ShelfKind.name` of every change.
    public var kind: String
    public var key: String
    public var fingerprint: [UInt8]
    public var changes: [ShelfChangeRecord]
    /// The movie each key's record is about, for the keys the changes give a value: the catalogue
    /// must hold it. A removal names no movie and is always taken.
    public var movies: [String: Int]
    /// The group each key of the write that is given a value counts in, and how many records in
    /// force a group may hold (`ShelfKind.groupLimit`); empty for a kind not counted.
    public var groups: [String: String] = [:]
    /// The kind whose record in force must name each group this write sets a record of, and the
    /// group of each key set (removals are taken on any group).
    public var parentKind: String?
    public var parents: [String: String] = [:]
    public var groupLimit = Int.max
    /// How many records (removed ones included) the owner may keep of the kind
    /// (`ShelfKind.recordLimit`).
    public var recordLimit = Int.max
    /// What a person calls the kind's records, for the refusal past ``recordLimit``.
    public var recordsNoun = "records"
    /// The latest `changedAt` a change is ordered by, as for the watchlist
    /// (``WatchlistWrite/futureMargin``).
    public var latestChangeTime: Int64

    public init(owner: String, account: String?, kind: String, key: String, body: some DataProtocol, changes: [ShelfChangeRecord], movies: [String: Int], receivedAt: Int64 = WatchlistClock.now()) {
        var hash = SHA256()
        hash.update(data: Data(kind.utf8))
        hash.update(data: [0])
        hash.update(data: body)
        self.owner = owner
        self.account = account
        self.kind = kind
        self.key = key
        fingerprint = Array(hash.finalize())
        self.changes = changes
        self.movies = movies
        latestChangeTime = receivedAt + WatchlistWrite.futureMargin
    }
}

/// What storage holds that a shelf write depends on.
public struct ShelfState: Sendable {
    public var storedRequest: (fingerprint: [UInt8], answer: WatchlistAnswer)?
    public var seenChanges: [String: SeenChange]
    /// The stored entries of the write's keys.
    public var entries: [String: ShelfEntry]
    /// Which of the write's movies the catalogue holds.
    public var knownMovies: Set<Int>
    /// How many records in force each group the write adds to holds.
    public var groupCounts: [String: Int] = [:]
    /// The groups of ``ShelfWrite/parents`` whose parent record is in force.
    public var knownParents: Set<String> = []
    /// How many records (removed ones included) the owner keeps of the kind; read only when the
    /// kind has a limit.
    public var recordCount = 0

    public init(storedRequest: (fingerprint: [UInt8], answer: WatchlistAnswer)?, seenChanges: [String: SeenChange], entries: [String: ShelfEntry], knownMovies: Set<Int>) {
        self.storedRequest = storedRequest
        self.seenChanges = seenChanges
        self.entries = entries
        self.knownMovies = knownMovies
    }
}
