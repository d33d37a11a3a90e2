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

    @Test("an addition without a note keeps the one the movie has: a pending change's, else the server's; an empty note clears it; after a removal there is none")
    func additionKeepsTheNote() async throws {
        let store = try makeStore()
        try await store.replaceWatchlist([WatchlistItem(movieID: 6, note: "Friday", changedAt: 1_700_000_000_000)], entityTag: nil, api: api)
        #expect(try await store.recordWatchlistChange(movieID: 6, action: .add, api: api).note == "Friday", "the server's known note")
        _ = try await store.recordWatchlistChange(movieID: 6, action: .add, note: "Saturday", api: api)
        #expect(try await store.recordWatchlistChange(movieID: 6, action: .add, api: api).note == "Saturday", "the pending change's note")
        #expect(try await store.watchlist(api: api).lines.first?.note == "Saturday")
        #expect(try await store.recordWatchlistChange(movieID: 6, action: .add, note: "", api: api).note == "")
        _ = try await store.recordWatchlistChange(movieID: 6, action: .add, note: "again", api: api)
        _ = try await store.recordWatchlistChange(movieID: 6, action: .remove, api: api)
        #expect(try await store.recordWatchlistChange(movieID: 6, action: .add, api: api).note == "", "a removed movie comes back with no note")
        #expect(try await store.recordWatchlistChange(movieID: 7, action: .add, api: api).note == "")
    }
}
