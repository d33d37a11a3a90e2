import GRDB
import Movies

/// The store's log of changes to each known watchlist (``WatchlistChange``), written in the
/// transaction that changes the list: by the live feed, a pull, or an acknowledged change of this
/// machine. The newest ``kept`` rows are kept.
enum WatchlistChangeLog {
    static let kept: Int64 = 10_000

    /// Logs what replacing `before` by `after` did to the list of `apiID`, if anything: a change
    /// made at `changedAt` (a removal's own time, which no entry keeps).
    static func note(before: KnownWatchlistEntry?, after: KnownWatchlistEntry?, movieID: Int, changedAt: Int64, apiID: Int64, in db: Database) throws {
        let kind: WatchlistChange.Kind
        switch (before, after) {
        case (nil, nil): return
        case (nil, _?): kind = .added
        case (_?, nil): kind = .removed
        case let (old?, new?):
            guard old.note != new.note else { return }
            kind = .noteChanged
        }
        try db.execute(
            sql: "INSERT INTO watchlistChangeLog (apiId, movieId, kind, note, changedAt) VALUES (?, ?, ?, ?, ?)",
            arguments: [apiID, movieID, kind.rawValue, after?.note ?? "", changedAt]
        )
        let sequence = db.lastInsertedRowID
        if sequence % 100 == 0 {
            try db.execute(sql: "DELETE FROM watchlistChangeLog WHERE sequence <= ?", arguments: [sequence - kept])
        }
    }

    /// Where the log of `api` stands: the sequence of its last change (0 when none).
    static func position(api: String, in db: Database) throws -> Int64 {
        guard let apiID = try StoredAPI.id(of: api, in: db) else { return 0 }
        return try Int64.fetchOne(db, sql: "SELECT max(sequence) FROM watchlistChangeLog WHERE apiId = ?", arguments: [apiID]) ?? 0
    }

    /// The changes of `api` after `position`, oldest first.
    static func changes(after position: Int64, api: String, in db: Database) throws -> [WatchlistChange] {
        guard let apiID = try StoredAPI.id(of: api, in: db) else { return [] }
        return try Row.fetchAll(
            db, sql: "SELECT sequence, movieId, kind, note, changedAt FROM watchlistChangeLog WHERE apiId = ? AND sequence > ? ORDER BY sequence",
            arguments: [apiID, position]
        ).compactMap { row in
            guard let kind = WatchlistChange.Kind(rawValue: row["kind"]) else { return nil }
            return WatchlistChange(sequence: row["sequence"], movieID: row["movieId"], kind: kind, note: row["note"], changedAt: row["changedAt"])
        }
    }
}

extension MovieStore {
    /// Where the change log of `api`'s known watchlist stands: follow it from here.
    public func watchlistLogPosition(api: APIKey) async throws(StoreError) -> Int64 {
        try await read { db in try WatchlistChangeLog.position(api: api, in: db) }
    }

    /// The changes to `api`'s known watchlist after `position`, whichever process made them.
    public func watchlistChanges(after position: Int64, api: APIKey) async throws(StoreError) -> [WatchlistChange] {
        try await read { db in try WatchlistChangeLog.changes(after: position, api: api, in: db) }
    }
}
