import Foundation
import Movies
import MovieStore
import Testing

/// When a movie left the list, as the server says: a replayed event of an earlier change does not
/// bring it back, and a change made after seeing the removal is stamped after it, whatever the
/// clock of the machine says (found by scripts/chaos: a window printed old changes again after a
/// reconnect, and a device whose clock ran a day behind lost the movie it added back).
@Suite("A known watchlist's removals")
struct WatchlistRemovalTests {
    let api = "http://watch.test/api/"
    let removedAt: Int64 = 1_800_000_000_000

    @Test("a replayed addition older than the removal a pull brought changes nothing and logs nothing; a newer one is applied")
    func replayedAdditionStaysRemoved() async throws {
        let store = try makeStore()
        try await store.replaceWatchlist([WatchlistItem(movieID: 7, note: "kept", changedAt: 1)], removals: [6: removedAt], entityTag: nil, api: api)
        let position = try await store.watchlistLogPosition(api: api)
        let replay = LiveUpdate.watchlist(WatchlistItem(movieID: 6, note: "before", changedAt: removedAt - 1000), removed: false, cursor: "5")
        #expect(try await store.applyLiveUpdate(replay, api: api) == false)
        #expect(try await store.watchlist(api: api).lines.map(\.movieID) == [7])
        #expect(try await store.watchlistChanges(after: position, api: api).isEmpty, "a window prints nothing")
        let added = LiveUpdate.watchlist(WatchlistItem(movieID: 6, note: "back", changedAt: removedAt + 1000), removed: false, cursor: "6")
        #expect(try await store.applyLiveUpdate(added, api: api))
        #expect(try await store.watchlist(api: api).lines.map(\.movieID).sorted() == [6, 7])
    }

    @Test("a removal this machine made and the server applied is remembered: an older addition that arrives after it is passed over")
    func ownRemovalIsRemembered() async throws {
        let store = try makeStore()
        try await store.replaceWatchlist([WatchlistItem(movieID: 6, note: "on", changedAt: removedAt - 5000)], entityTag: nil, api: api)
        let removal = try await store.recordWatchlistChange(movieID: 6, action: .remove, api: api, now: Date(timeIntervalSince1970: Double(removedAt) / 1000))
        try await store.acknowledgeWatchlistChanges([(removal, .applied)], api: api)
        let late = LiveUpdate.watchlist(WatchlistItem(movieID: 6, note: "on", changedAt: removedAt - 5000), removed: false, cursor: "9")
        #expect(try await store.applyLiveUpdate(late, api: api) == false)
        #expect(try await store.watchlist(api: api).lines.isEmpty)
    }

    @Test("a removal the live feed brought is remembered, even when the movie was not known here")
    func removalEventIsRemembered() async throws {
        let store = try makeStore()
        let removal = LiveUpdate.watchlist(WatchlistItem(movieID: 6, note: "", changedAt: removedAt), removed: true, cursor: "3")
        _ = try await store.applyLiveUpdate(removal, api: api)
        let older = LiveUpdate.watchlist(WatchlistItem(movieID: 6, note: "older", changedAt: removedAt - 1), removed: false, cursor: "4")
        #expect(try await store.applyLiveUpdate(older, api: api) == false)
        let change = try await store.recordWatchlistChange(movieID: 6, action: .add, note: "again", api: api, now: Date(timeIntervalSince1970: 0))
        #expect(change.changedAt > removedAt)
    }

    @Test("a change made after seeing a removal is stamped after it, though this machine's clock is a day behind")
    func changeAfterRemovalIsLater() async throws {
        let store = try makeStore()
        try await store.replaceWatchlist([], removals: [6: removedAt], entityTag: nil, api: api)
        let dayBehind = Date(timeIntervalSince1970: Double(removedAt) / 1000 - 86_400)
        let change = try await store.recordWatchlistChange(movieID: 6, action: .add, note: "back", api: api, now: dayBehind)
        #expect(change.changedAt == removedAt + 1)
        let other = try await store.recordWatchlistChange(movieID: 8, action: .add, note: "untouched", api: api, now: dayBehind)
        #expect(other.changedAt == removedAt - 86_400_000, "another movie keeps this machine's time")
    }

    @Test("a list's removals are kept at their newest time; a list without any, or from a server that sends none, forgets none")
    func removalsAreKept() async throws {
        let store = try makeStore()
        let epoch = Date(timeIntervalSince1970: 0)
        try await store.replaceWatchlist([], removals: [6: removedAt, 9: removedAt], entityTag: nil, api: api)
        try await store.replaceWatchlist([], removals: [9: removedAt - 1000], entityTag: nil, api: api)
        try await store.replaceWatchlist([], removals: nil, entityTag: nil, api: api)
        try await store.replaceWatchlist([], removals: [:], entityTag: nil, api: api)
        #expect(try await store.recordWatchlistChange(movieID: 6, action: .add, api: api, now: epoch).changedAt == removedAt + 1)
        #expect(try await store.recordWatchlistChange(movieID: 9, action: .add, api: api, now: epoch).changedAt == removedAt + 1)
    }
}
