import Foundation
import GRDB
import Movies

/// The watchlist tables: recording a change in the outbox, reading what to send, acknowledging
/// it, keeping the server's state, and the view that joins them.
enum WatchlistStoring {
    /// Writes a change to the outbox and returns it. Its time is this machine's clock, but always
    /// after the last change this store made to the movie on this API and after the movie's known
    /// state there, so that on this device a later change always wins over an earlier one. Other
    /// movies and other APIs do not count: one entry stamped far in the future holds back only
    /// its own movie.
    static func record(movieID: Int, action: WatchlistChangeRecord.Action, note: String, api: String, now: Date, in db: Database) throws -> WatchlistChangeRecord {
        let apiID = try StoredAPI.id(making: api, in: db)
        let device = try device(in: db)
        let latest = try Int64.fetchOne(db, sql: """
            SELECT MAX(changedAt) FROM (
                SELECT changedAt FROM watchlistOutbox WHERE apiId = ? AND movieId = ?
                UNION ALL SELECT changedAt FROM watchlistEntry WHERE apiId = ? AND movieId = ?)
            """, arguments: [apiID, movieID, apiID, movieID]) ?? 0
        let record = WatchlistChangeRecord(
            id: UUID().uuidString.lowercased(), movieID: movieID, action: action, note: action == .add ? note : "",
            changedAt: min(max(WatchlistClock.now(now), latest + 1), WatchlistClock.latest), device: device
        )
        try db.execute(sql: """
            INSERT INTO watchlistOutbox (apiId, changeId, movieId, action, note, changedAt, device) VALUES (?, ?, ?, ?, ?, ?, ?)
            """, arguments: [apiID, record.id, movieID, action.rawValue, record.note, record.changedAt, device])
        return record
    }

    /// The first `limit` changes waiting for `api`, oldest first.
    static func pending(api: String, limit: Int, in db: Database) throws -> [WatchlistChangeRecord] {
        try Row.fetchAll(db, sql: """
            SELECT changeId, movieId, action, note, changedAt, device FROM watchlistOutbox
            WHERE apiId = \(StoredAPI.idOfKey) ORDER BY sequence LIMIT ?
            """, arguments: [api, limit]).map { row in
            WatchlistChangeRecord(
                id: row["changeId"], movieID: row["movieId"], action: WatchlistChangeRecord.Action(rawValue: row["action"]) ?? .add,
                note: row["note"], changedAt: row["changedAt"], device: row["device"]
            )
        }
    }

    /// Takes `acknowledged` out of the outbox and writes the ones the server applied into the
    /// known state, so that the list is right before the next pull.
    static func acknowledge(_ acknowledged: [(WatchlistChangeRecord, applied: Bool)], api: String, in db: Database) throws {
        let apiID = try StoredAPI.id(making: api, in: db)
        for (change, applied) in acknowledged {
            try db.execute(sql: "DELETE FROM watchlistOutbox WHERE changeId = ?", arguments: [change.id])
            guard applied else { continue }
            switch change.action {
            case .add:
                try db.execute(
                    sql: "INSERT OR REPLACE INTO watchlistEntry (apiId, movieId, note, changedAt) VALUES (?, ?, ?, ?)",
                    arguments: [apiID, change.movieID, change.note, change.changedAt]
                )
            case .remove:
                try db.execute(sql: "DELETE FROM watchlistEntry WHERE apiId = ? AND movieId = ?", arguments: [apiID, change.movieID])
            }
        }
    }

    static func replace(_ items: [WatchlistItem], entityTag: String?, api: String, at date: Date, in db: Database) throws {
        let apiID = try StoredAPI.id(making: api, in: db)
        try db.execute(sql: "DELETE FROM watchlistEntry WHERE apiId = ?", arguments: [apiID])
        for item in items {
            try db.execute(
                sql: "INSERT OR REPLACE INTO watchlistEntry (apiId, movieId, note, changedAt) VALUES (?, ?, ?, ?)",
                arguments: [apiID, item.movieID, item.note, item.changedAt]
            )
        }
        try saveState(apiID: apiID, entityTag: entityTag, pulledAt: date, serverHasNone: false, in: db)
    }

    static func confirm(api: String, at date: Date, in db: Database) throws {
        let apiID = try StoredAPI.id(making: api, in: db)
        try db.execute(sql: "UPDATE watchlistState SET pulledAt = ?, serverHasNone = 0 WHERE apiId = ?", arguments: [date.timeIntervalSince1970, apiID])
    }

    static func entityTag(api: String, in db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT entityTag FROM watchlistState WHERE apiId = \(StoredAPI.idOfKey)", arguments: [api])
    }

    static func markServerHasNone(api: String, in db: Database) throws {
        let apiID = try StoredAPI.id(making: api, in: db)
        let known = try Row.fetchOne(db, sql: "SELECT entityTag, pulledAt FROM watchlistState WHERE apiId = ?", arguments: [apiID])
        try saveState(apiID: apiID, entityTag: known?["entityTag"], pulledAt: (known?["pulledAt"] as Double?).map { Date(timeIntervalSince1970: $0) }, serverHasNone: true, in: db)
    }

    static func view(api: String, in db: Database) throws -> WatchlistView {
        var lines: [Int: WatchlistView.Line] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT movieId, note, changedAt FROM watchlistEntry WHERE apiId = \(StoredAPI.idOfKey)", arguments: [api]) {
            lines[row["movieId"]] = WatchlistView.Line(movieID: row["movieId"], note: row["note"], changedAt: row["changedAt"], pending: nil)
        }
        let pending = try self.pending(api: api, limit: Int.max, in: db)
        for change in pending {
            switch change.action {
            case .add:
                lines[change.movieID] = WatchlistView.Line(movieID: change.movieID, note: change.note, changedAt: change.changedAt, pending: .adding)
            case .remove:
                if var line = lines[change.movieID], line.pending != .adding {
                    line.pending = .removing
                    line.changedAt = change.changedAt
                    lines[change.movieID] = line
                } else {
                    lines[change.movieID] = nil
                }
            }
        }
        let ids = Array(lines.keys)
        for id in ids {
            lines[id]?.movie = try MovieReading.movie(id: id, api: api, in: db)?.value
        }
        let state = try Row.fetchOne(db, sql: "SELECT pulledAt, serverHasNone FROM watchlistState WHERE apiId = \(StoredAPI.idOfKey)", arguments: [api])
        return WatchlistView(
            lines: lines.values.sorted { ($0.changedAt, $1.movieID) > ($1.changedAt, $0.movieID) },
            pendingChanges: pending.count,
            pulledAt: (state?["pulledAt"] as Double?).map { Date(timeIntervalSince1970: $0) },
            serverHasNone: (state?["serverHasNone"] as Bool?) ?? false
        )
    }

    /// This store's device id, made at its first change.
    private static func device(in db: Database) throws -> String {
        if let device = try String.fetchOne(db, sql: "SELECT device FROM storeDevice") { return device }
        let device = UUID().uuidString.lowercased()
        try db.execute(sql: "INSERT INTO storeDevice (id, device) VALUES (1, ?)", arguments: [device])
        return device
    }

    private static func saveState(apiID: Int64, entityTag: String?, pulledAt: Date?, serverHasNone: Bool, in db: Database) throws {
        try db.execute(sql: """
            INSERT OR REPLACE INTO watchlistState (apiId, entityTag, pulledAt, serverHasNone) VALUES (?, ?, ?, ?)
            """, arguments: [apiID, entityTag, pulledAt?.timeIntervalSince1970, serverHasNone])
    }
}
