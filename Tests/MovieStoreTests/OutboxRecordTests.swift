import Foundation
import GRDB
import Movies
import MovieStore
import Testing

@Suite("The outbox's records")
struct OutboxRecordTests {
    let api = "http://watch.test/api/"

    @Test("a stored change with an action this version does not know is an error when read, never sent as an add")
    func unknownActionIsRefused() async throws {
        let store = try makeStore()
        let change = try await store.recordWatchlistChange(movieID: 4, action: .remove, api: api)
        try await DatabaseQueue(path: store.url.path).write { db in
            try db.execute(sql: "UPDATE watchlistOutbox SET action = 'archive' WHERE changeId = ?", arguments: [change.id])
        }
        await #expect(throws: StoreError.self) { try await store.pendingWatchlistChanges(api: api) }
        await #expect(throws: StoreError.self) { try await store.watchlist(api: api) }
    }

    @Test("a recorded change is returned as written, and read back the same")
    func recordedChangeIsReadBack() async throws {
        let store = try makeStore()
        let change = try await store.recordWatchlistChange(movieID: 9, action: .add, note: "Friday", api: api)
        #expect(change.movieID == 9 && change.action == .add && change.note == "Friday")
        #expect(try await store.pendingWatchlistChanges(api: api) == [change])
    }
}
