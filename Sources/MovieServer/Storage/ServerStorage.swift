import Foundation
import Movies
import NIOConcurrencyHelpers

/// Where a ``MovieServer`` keeps what outlives a request: the catalog it serves and the refresh
/// tokens it issued. In memory (the default), in a SQLite file for one instance that survives
/// restarts, or in PostgreSQL for any number of instances.
public protocol ServerStorage: Sendable {
    /// Names the storage in logs and errors, without any password.
    var summary: String { get }

    /// The catalog, when this storage's can never change while the server runs (it is kept in
    /// memory): its answers can be prepared at start and never rechecked. `nil` for a database.
    var fixedCatalog: Catalog? { get }

    func movie(id: Int) async throws(StorageError) -> CatalogMovie?

    /// The best `limit` movies of `year` in `order`, ties to the higher id.
    func topMovies(_ order: TopListOrder, year: Int, limit: Int) async throws(StorageError) -> [CatalogMovie]

    /// The first `search.limit + 1` movies of `search`, in its order, after its position (the one
    /// more tells whether there is a next page).
    func search(_ search: MovieSearch) async throws(StorageError) -> [SearchHit]

    /// A number that changes whenever the catalog does, so that encoded lists can be kept until then.
    func catalogVersion() async throws(StorageError) -> Int64

    func saveRefreshToken(_ token: StoredRefreshToken) async throws(StorageError)

    /// Removes the token with this hash and returns what it was, in one atomic step: of any number
    /// of concurrent redemptions, on any instance, exactly one gets it.
    func redeemRefreshToken(hash: [UInt8]) async throws(StorageError) -> StoredRefreshToken?

    /// Forgets refresh tokens that expired before `date`.
    func removeRefreshTokens(expiredBefore date: Date) async throws(StorageError)

    /// The entries of `owner`'s watchlist (not its tombstones), the newest change first.
    func watchlist(owner: String) async throws(StorageError) -> [WatchlistEntry]

    /// Applies `write` as ``WatchlistPlan`` decides, in one transaction (its answer kept under its
    /// key with it), and returns the answer: of concurrent writes with the same key or change
    /// ids, on any instance, each change is applied once.
    func applyWatchlist(_ write: WatchlistWrite, now: Date) async throws(StorageError) -> WatchlistAnswer

    /// The changes `owner`'s watchlist received, each once, in the order they were applied: the
    /// server's log of them.
    func watchlistJournal(owner: String) async throws(StorageError) -> [WatchlistJournalEntry]

    /// Throws unless the storage answers a query now.
    func checkHealth() async throws(StorageError)

    /// Releases connections and files; the storage is not used afterwards.
    func close() async
}

/// One line of a watchlist's log: a change, and what became of it.
public struct WatchlistJournalEntry: Sendable, Hashable {
    public var changeID: String
    public var movieID: Int
    public var outcome: WatchlistChangeOutcome

    public init(changeID: String, movieID: Int, outcome: WatchlistChangeOutcome) {
        self.changeID = changeID
        self.movieID = movieID
        self.outcome = outcome
    }
}

/// How long a watchlist request's answer is kept under its `Idempotency-Key`: a retry within this
/// time gets the first answer (the change ids guard against a repeat after it).
public enum WatchlistRetention {
    public static let keys: TimeInterval = 25 * 3600
    /// How often a write also removes the answers past their time.
    static let purgeInterval: TimeInterval = 600
}

/// When a storage last removed old watchlist answers: a write does so at most once per
/// ``WatchlistRetention/purgeInterval``, not on every request.
final class WatchlistPurgeSchedule: Sendable {
    private let last = NIOLockedValueBox<Date?>(nil)

    /// Whether a write at `now` should purge; the first to ask after the interval is told yes.
    func isDue(at now: Date) -> Bool {
        last.withLockedValue { last in
            if let previous = last, now.timeIntervalSince(previous) < WatchlistRetention.purgeInterval { return false }
            last = now
            return true
        }
    }
}

/// The two orderings of the API's top lists.
public enum TopListOrder: String, Sendable, CaseIterable {
    case grossing
    case rating
}

extension ServerStorage {
    public var fixedCatalog: Catalog? { nil }
}

/// A refresh token as storage keeps it: only the SHA-256 of the token, never the token.
public struct StoredRefreshToken: Sendable, Hashable {
    public var hash: [UInt8]
    public var clientID: String
    public var expiresAt: Date

    public init(hash: [UInt8], clientID: String, expiresAt: Date) {
        self.hash = hash
        self.clientID = clientID
        self.expiresAt = expiresAt
    }
}
