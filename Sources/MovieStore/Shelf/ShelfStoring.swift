import Foundation
import GRDB
import MovieContract
import Movies

/// The shelf's tables (`shelfRecord`, `shelfOutbox`) for every kind: recording a change in the
/// outbox, reading what to send, acknowledging it, keeping the server's records, and the view
/// that joins them. The watchlist's rules, for any kind.
enum ShelfStoring {
    /// Writes a change to the outbox and returns it. Its time is this machine's clock, but always
    /// after the last change this store made to the key (by two milliseconds while that one
    /// waits, which the server may order one millisecond late) and after the key's known record or
    /// removal, so that a change made after seeing another wins over it, whatever the clocks say.
    static func record(kind: String, key: String, value: String?, api: String, now: Date, in db: Database) throws -> ShelfChangeRecord {
        let apiID = try StoredAPI.id(making: api, in: db)
        let latestSent = try Int64.fetchOne(db, sql: "SELECT max(changedAt) FROM shelfOutbox WHERE apiId = ? AND kind = ? AND key = ?", arguments: [apiID, kind, key])
        let known = try Int64.fetchOne(db, sql: "SELECT changedAt FROM shelfRecord WHERE apiId = ? AND kind = ? AND key = ?", arguments: [apiID, kind, key])
        let latest = [latestSent.map { $0 + 1 }, known].compactMap { $0 }.max() ?? 0
        let change = ShelfChangeRecord(
            id: UUID().uuidString.lowercased(), kind: kind, key: key, value: value,
            changedAt: min(max(WatchlistClock.now(now), latest + 1), WatchlistClock.latest), device: try StoreDevice.current(in: db)
        )
        try db.execute(
            sql: "INSERT INTO shelfOutbox (apiId, kind, changeId, key, value, changedAt, device) VALUES (?, ?, ?, ?, ?, ?, ?)",
            arguments: [apiID, kind, change.id, key, value, change.changedAt, change.device]
        )
        return change
    }

    /// The first `limit` changes of `kind` waiting for `api`, oldest first.
    static func pending(kind: String, api: String, limit: Int, in db: Database) throws -> [ShelfChangeRecord] {
        guard let apiID = try StoredAPI.id(of: api, in: db) else { return [] }
        return try Row.fetchAll(db, sql: """
            SELECT changeId, key, value, changedAt, device FROM shelfOutbox WHERE apiId = ? AND kind = ? ORDER BY sequence LIMIT ?
            """, arguments: [apiID, kind, limit]).map { row in
            ShelfChangeRecord(id: row["changeId"], kind: kind, key: row["key"], value: row["value"], changedAt: row["changedAt"], device: row["device"])
        }
    }

    /// Takes `acknowledged` out of the outbox and writes the ones the server applied into the
    /// known records, unless the store already knows a later state of the key.
    static func acknowledge(_ acknowledged: [(ShelfChangeRecord, applied: Bool)], api: String, now: Date, in db: Database) throws {
        let apiID = try StoredAPI.id(making: api, in: db)
        for (change, applied) in acknowledged {
            try db.execute(sql: "DELETE FROM shelfOutbox WHERE changeId = ?", arguments: [change.id])
            guard applied else { continue }
            try learn(ShelfSnapshot.Record(key: change.key, value: change.value ?? "", changedAt: change.changedAt), removed: change.isRemoval,
                      kind: change.kind, apiID: apiID, now: now, in: db)
        }
    }

    /// Keeps what the server said of one key, unless a later state of it is known; the title
    /// and year known of the key stay when the record brings none.
    static func learn(_ record: ShelfSnapshot.Record, removed: Bool, kind: String, apiID: Int64, now: Date, in db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO shelfRecord (apiId, kind, key, value, changedAt, removed, title, year, learnedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (apiId, kind, key) DO UPDATE SET value = excluded.value, changedAt = excluded.changedAt, removed = excluded.removed,
                title = coalesce(excluded.title, shelfRecord.title), year = coalesce(excluded.year, shelfRecord.year), learnedAt = excluded.learnedAt
            WHERE excluded.changedAt >= shelfRecord.changedAt
            """).execute(arguments: [apiID, kind, record.key, removed ? "" : record.value, record.changedAt, removed, record.title, record.year, now.timeIntervalSince1970])
    }

    /// Keeps a record the live feed brought, unless a later state of its key is known.
    static func learn(_ change: ShelfLiveChange, apiID: Int64, now: Date = Date(), in db: Database) throws {
        try learn(ShelfSnapshot.Record(key: change.key, value: change.value ?? "", changedAt: change.changedAt), removed: change.value == nil,
                  kind: change.kind, apiID: apiID, now: now, in: db)
    }

    /// Takes in the server's records of `kind`: key by key, the later state wins; a key the
    /// server no longer names goes, unless it was learnt after `askedAt` (an acknowledgement or a
    /// live event that the server's answer, read before, could not hold).
    static func replace(_ snapshot: ShelfSnapshot, kind: String, api: String, askedAt: Date, now: Date, in db: Database) throws {
        let apiID = try StoredAPI.id(making: api, in: db)
        for record in snapshot.records {
            try learn(record, removed: false, kind: kind, apiID: apiID, now: now, in: db)
        }
        for (key, changedAt) in snapshot.removals {
            try learn(ShelfSnapshot.Record(key: key, value: "", changedAt: changedAt), removed: true, kind: kind, apiID: apiID, now: now, in: db)
        }
        let named = Set(snapshot.records.map(\.key)).union(snapshot.removals.keys)
        let stored = try String.fetchAll(db, sql: "SELECT key FROM shelfRecord WHERE apiId = ? AND kind = ? AND learnedAt < ?",
                                         arguments: [apiID, kind, askedAt.timeIntervalSince1970])
        for key in stored where !named.contains(key) {
            try db.execute(sql: "DELETE FROM shelfRecord WHERE apiId = ? AND kind = ? AND key = ?", arguments: [apiID, kind, key])
        }
    }

    /// The records of `Kind` as this machine sees them: the known ones, each overlaid by the last
    /// pending change of its key; newest change first.
    static func view<Kind: ShelfKind>(_ kind: Kind.Type, api: String, in db: Database) throws -> ShelfView<Kind> {
        guard let apiID = try StoredAPI.id(of: api, in: db) else { return ShelfView(lines: [], pendingCount: 0, pendingRemovals: []) }
        // Read by column index, in one pass: a diary holds tens of thousands of rows.
        var keys: [String] = [], texts: [String] = [], stamps: [Int64] = [], titles: [String?] = [], years: [Int?] = []
        let rows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT key, value, changedAt, title, year FROM shelfRecord WHERE apiId = ? AND kind = ? AND removed = 0 ORDER BY changedAt DESC, key
            """), arguments: [apiID, Kind.name])
        while let row = try rows.next() {
            keys.append(row[0])
            texts.append(row[1])
            stamps.append(row[2])
            titles.append(row[3])
            years.append(row[4])
        }
        let values = Kind.values(ofTexts: texts)
        var known: [ShelfView<Kind>.Line] = []
        known.reserveCapacity(keys.count)
        for index in keys.indices {
            guard let value = values[index] else { continue }
            known.append(.init(key: keys[index], value: value, changedAt: stamps[index], title: titles[index], year: years[index], isPending: false))
        }
        let pending = try Row.fetchAll(db, sql: "SELECT key, value, changedAt FROM shelfOutbox WHERE apiId = ? AND kind = ? ORDER BY sequence",
                                       arguments: [apiID, Kind.name])
        // Known records come in order: only pending changes make a sort needed.
        guard !pending.isEmpty else { return ShelfView(lines: known, pendingCount: 0, pendingRemovals: []) }
        var lines = Dictionary(known.map { ($0.key, $0) }) { first, _ in first }
        var removals = Set<String>()
        for row in pending {
            let key: String = row["key"]
            if let text: String = row["value"], let value = Kind.value(ofText: text) {
                let known = lines[key]
                lines[key] = .init(key: key, value: value, changedAt: row["changedAt"], title: known?.title, year: known?.year, isPending: true)
                removals.remove(key)
            } else {
                lines[key] = nil
                removals.insert(key)
            }
        }
        let ordered = lines.values.sorted { ($0.changedAt, $1.key) > ($1.changedAt, $0.key) }
        return ShelfView(lines: ordered, pendingCount: pending.count, pendingRemovals: removals)
    }
}
