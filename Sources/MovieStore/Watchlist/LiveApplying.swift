import GRDB
import Movies

/// Applies the live feed's updates to a watchlist scope, in the caller's transaction, each at
/// most once: an update whose sequence is not past the scope's cursor is a replay and changes
/// nothing, and so is one the last list taken already holds (its sequence is not past the feed
/// position that list was read at). A change older than what the store knows of its movie (its entry, or when it left the
/// list) is passed over too: a replayed addition does not bring back a movie removed since.
enum LiveApplying {
    /// Whether `update` changed the known list.
    static func apply(_ update: LiveUpdate, api: String, in db: Database) throws -> Bool {
        guard let sequence = Int64(update.cursor) else { return false }
        let apiID = try StoredAPI.id(making: api, in: db)
        let stored = try Int64.fetchOne(db, sql: "SELECT sequence FROM liveCursor WHERE apiId = ?", arguments: [apiID])
        if case .watchlist = update, let stored, sequence <= stored { return false }
        try db.execute(sql: """
            INSERT INTO liveCursor (apiId, sequence) VALUES (?, ?)
            ON CONFLICT (apiId) DO UPDATE SET sequence = excluded.sequence
            """, arguments: [apiID, sequence])
        if case let .shelf(change, _) = update {
            try ShelfStoring.learn(change, apiID: apiID, in: db)
            return false
        }
        guard case let .watchlist(item, removed, _) = update else { return false }
        if let listed = try Int64.fetchOne(db, sql: "SELECT feedPosition FROM watchlistState WHERE apiId = ?", arguments: [apiID]), sequence <= listed {
            return false
        }
        let known = try KnownWatchlistEntry.fetchOne(db, key: ["apiId": apiID, "movieId": item.movieID])
        if let known, known.changedAt > item.changedAt { return false }
        if let removedAt = try WatchlistRemovals.at(item.movieID, apiID: apiID, in: db), removedAt > item.changedAt { return false }
        if removed {
            try WatchlistRemovals.note(item.movieID, at: item.changedAt, apiID: apiID, in: db)
            guard try KnownWatchlistEntry.deleteOne(db, key: ["apiId": apiID, "movieId": item.movieID]) else { return false }
            try WatchlistChangeLog.note(before: known, after: nil, movieID: item.movieID, changedAt: item.changedAt, apiID: apiID, in: db)
            return true
        }
        let entry = KnownWatchlistEntry(
            apiId: apiID, movieId: item.movieID, note: item.note, changedAt: item.changedAt,
            title: item.title ?? known?.title, year: item.year ?? known?.year
        )
        try entry.save(db)
        try WatchlistChangeLog.note(before: known, after: entry, movieID: item.movieID, changedAt: item.changedAt, apiID: apiID, in: db)
        return true
    }

    static func cursor(api: String, in db: Database) throws -> String? {
        guard let apiID = try StoredAPI.id(of: api, in: db) else { return nil }
        return try Int64.fetchOne(db, sql: "SELECT sequence FROM liveCursor WHERE apiId = ?", arguments: [apiID]).map(String.init)
    }
}

extension MovieStore {
    /// Applies one update of the live feed to `api`'s known watchlist (a scope key), at most
    /// once; returns whether the list changed.
    @discardableResult
    public func applyLiveUpdate(_ update: LiveUpdate, api: APIKey) async throws(StoreError) -> Bool {
        try await write { db in try LiveApplying.apply(update, api: api, in: db) }
    }

    /// The cursor of the last live update applied to `api`, to resume after.
    public func liveCursor(api: APIKey) async throws(StoreError) -> String? {
        try await read { db in try LiveApplying.cursor(api: api, in: db) }
    }
}
