import Foundation
import MovieContract
import Movies

extension MovieStore {
    /// Writes a change to `api`'s watchlist outbox, in one transaction, before anything is sent:
    /// from then on it is shown, and kept until the server acknowledges it. An addition with a
    /// `note` gives the movie that note (`""` clears it); one without keeps the note the movie
    /// has on this machine's view of the list, pending changes included.
    public func recordWatchlistChange(
        movieID: Int, action: WatchlistChangeRecord.Action, note: String? = nil, api: APIKey, now: Date = Date()
    ) async throws(StoreError) -> WatchlistChangeRecord {
        try await write { db in
            try WatchlistStoring.record(movieID: movieID, action: action, note: note, api: api, now: now, in: db)
        }
    }

    /// Drops the changes waiting to be sent to `api` (a person's explicit choice when signing
    /// out); how many were dropped.
    public func discardPendingWatchlistChanges(api: APIKey) async throws(StoreError) -> Int {
        try await write { db in try WatchlistStoring.discardPending(api: api, in: db) }
    }

    /// How many changes wait to be sent to `api`.
    public func pendingWatchlistChangeCount(api: APIKey) async throws(StoreError) -> Int {
        try await read { db in try WatchlistStoring.pending(api: api, limit: .max, in: db).count }
    }

    /// The oldest `limit` changes waiting to be sent to `api`, in the order they were made.
    public func pendingWatchlistChanges(api: APIKey, limit: Int = .max) async throws(StoreError) -> [WatchlistChangeRecord] {
        try await read { db in try WatchlistStoring.pending(api: api, limit: limit, in: db) }
    }

    /// Takes the changes the server acknowledged out of the outbox, in one transaction, and
    /// writes those it applied into `api`'s known list.
    public func acknowledgeWatchlistChanges(_ changes: [(WatchlistChangeRecord, WatchlistChangeOutcome)], api: APIKey) async throws(StoreError) {
        let acknowledged = changes.map { ($0.0, applied: $0.1 == .applied) }
        try await write { db in try WatchlistStoring.acknowledge(acknowledged, api: api, in: db) }
    }

    /// Makes `items` the server's known watchlist for `api`, with the answer's entity tag, and
    /// `removals` (when the server sent them) the known times its removed movies left it.
    /// `askedAtLogPosition` is where the change log stood when the list was asked for: a movie the
    /// list does not name but the log noted after it is kept (the list may have been read before
    /// it was committed). `feedPosition` is the live feed's position the server read the list at:
    /// a feed event up to it is in the list already, and is passed over when it arrives.
    public func replaceWatchlist(
        _ items: [WatchlistItem], removals: [Int: Int64]? = nil, entityTag: String?, api: APIKey, pulledAt: Date = Date(),
        askedAtLogPosition: Int64? = nil, feedPosition: Int64? = nil
    ) async throws(StoreError) {
        try await write { db in
            try WatchlistStoring.replace(
                items, removals: removals, entityTag: entityTag, feedPosition: feedPosition, api: api, at: pulledAt, askedAt: askedAtLogPosition, in: db
            )
        }
    }

    /// Records that the server confirmed (`304`) the known watchlist of `api`.
    public func confirmWatchlist(api: APIKey, pulledAt: Date = Date()) async throws(StoreError) {
        try await write { db in try WatchlistStoring.confirm(api: api, at: pulledAt, in: db) }
    }

    /// Records that `api`'s server keeps no watchlist: the list lives here.
    public func markWatchlistUnsupported(api: APIKey) async throws(StoreError) {
        try await write { db in try WatchlistStoring.markServerHasNone(api: api, in: db) }
    }

    /// The entity tag of the known watchlist of `api`, to ask the server conditionally.
    public func watchlistEntityTag(api: APIKey) async throws(StoreError) -> String? {
        try await read { db in try WatchlistStoring.entityTag(api: api, in: db) }
    }

    /// The watchlist of `api` as this machine sees it, with the person's ratings (what a movie's
    /// page shows beside it).
    public func watchlist(api: APIKey) async throws(StoreError) -> WatchlistView {
        try await read { db in try WatchlistStoring.view(api: api, withShelf: false, in: db) }
    }

    /// As ``watchlist(api:)``, with the whole shelf read in the same transaction: browse's
    /// segments. The commands that show the watchlist alone do not read a diary of thousands.
    public func watchlistAndShelf(api: APIKey) async throws(StoreError) -> WatchlistView {
        try await read { db in try WatchlistStoring.view(api: api, withShelf: true, in: db) }
    }
}
