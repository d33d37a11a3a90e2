import Foundation
import MovieContract
import GRDB
import Movies

extension MovieStore {
    /// Writes a change of `Kind` to `api`'s outbox, in one transaction, before anything is sent:
    /// from then on it is shown, and kept until the server acknowledges it. A nil `value`
    /// removes the key's record.
    public func recordShelfChange<Kind: ShelfKind>(
        _ kind: Kind.Type, key: String, value: Kind.Value?, api: APIKey, now: Date = Date()
    ) async throws(StoreError) -> ShelfChangeRecord {
        try await write { db in
            try ShelfStoring.record(kind: Kind.name, key: key, value: value.map(Kind.text(of:)), api: api, now: now, in: db)
        }
    }

    /// The oldest `limit` changes of `kind` waiting to be sent to `api`, in the order they were made.
    public func pendingShelfChanges(kind: String, api: APIKey, limit: Int = .max) async throws(StoreError) -> [ShelfChangeRecord] {
        try await read { db in try ShelfStoring.pending(kind: kind, api: api, limit: limit, in: db) }
    }

    /// Takes the changes the server acknowledged out of the outbox, in one transaction, and
    /// writes those it applied into `api`'s known records.
    public func acknowledgeShelfChanges(_ changes: [(ShelfChangeRecord, applied: Bool)], api: APIKey, now: Date = Date()) async throws(StoreError) {
        try await write { db in try ShelfStoring.acknowledge(changes, api: api, now: now, in: db) }
    }

    /// Takes in the server's records of `kind`, read by a request sent at `askedAt`.
    public func replaceShelf(_ snapshot: ShelfSnapshot, kind: String, api: APIKey, askedAt: Date, now: Date = Date()) async throws(StoreError) {
        try await write { db in try ShelfStoring.replace(snapshot, kind: kind, api: api, askedAt: askedAt, now: now, in: db) }
    }

    /// Keeps a record the live feed brought (unless a later state of its key is known), without
    /// moving the store's live cursor, which the watchlist's follower owns.
    public func learnShelfChange(_ change: ShelfLiveChange, api: APIKey) async throws(StoreError) {
        try await write { db in try ShelfStoring.learn(change, apiID: try StoredAPI.id(making: api, in: db), in: db) }
    }

    /// The values the store knows of `kind` (the server's, or acknowledged changes'), by key;
    /// removed records left out.
    public func knownShelfValues(kind: String, api: APIKey) async throws(StoreError) -> [String: String] {
        try await read { db in
            guard let apiID = try StoredAPI.id(of: api, in: db) else { return [:] }
            let rows = try Row.fetchAll(db, sql: "SELECT key, value FROM shelfRecord WHERE apiId = ? AND kind = ? AND removed = 0", arguments: [apiID, kind])
            return Dictionary(rows.map { ($0["key"], $0["value"]) }) { first, _ in first }
        }
    }

    /// The records of `Kind` of `api` as this machine sees them.
    public func shelf<Kind: ShelfKind>(_ kind: Kind.Type, api: APIKey) async throws(StoreError) -> ShelfView<Kind> {
        try await read { db in try ShelfStoring.view(kind, api: api, in: db) }
    }
}
