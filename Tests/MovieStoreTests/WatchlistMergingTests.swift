import Foundation
import Movies
import MovieStore
import Testing

/// A server's list taken in movie by movie, by version, when the server sends its removals (found
/// by scripts/chaos: a list read before the live feed's latest event was written after it, and a
/// window printed the movie's older note, then the newer one again).
@Suite("A pulled list merged into the known one")
struct WatchlistMergingTests {
    let api = "http://watch.test/api/"
    let time: Int64 = 1_800_000_000_000

    private func event(_ movie: Int, _ note: String, at changedAt: Int64, removed: Bool = false, cursor: Int) -> LiveUpdate {
        .watchlist(WatchlistItem(movieID: movie, note: note, changedAt: changedAt), removed: removed, cursor: String(cursor))
    }

    @Test("a list older than what the feed brought leaves the newer note, and logs nothing")
    func olderListLeavesNewerNote() async throws {
        let store = try makeStore()
        try await store.replaceWatchlist([WatchlistItem(movieID: 7, note: "old", changedAt: time)], removals: [:], entityTag: nil, api: api)
        #expect(try await store.applyLiveUpdate(event(7, "new", at: time + 1000, cursor: 1), api: api))
        let position = try await store.watchlistLogPosition(api: api)
        try await store.replaceWatchlist([WatchlistItem(movieID: 7, note: "old", changedAt: time)], removals: [:], entityTag: nil, api: api)
        #expect(try await store.watchlist(api: api).lines.map(\.note) == ["new"])
        #expect(try await store.watchlistChanges(after: position, api: api).isEmpty)
    }

    @Test("a movie the feed added after the list was read stays; one the feed removed stays removed")
    func feedChangesAfterTheListStay() async throws {
        let store = try makeStore()
        try await store.replaceWatchlist([WatchlistItem(movieID: 5, note: "on", changedAt: time)], removals: [:], entityTag: nil, api: api)
        #expect(try await store.applyLiveUpdate(event(9, "added", at: time + 1000, cursor: 1), api: api))
        #expect(try await store.applyLiveUpdate(event(5, "", at: time + 2000, removed: true, cursor: 2), api: api))
        try await store.replaceWatchlist([WatchlistItem(movieID: 5, note: "on", changedAt: time)], removals: [9: time + 500], entityTag: nil, api: api)
        #expect(try await store.watchlist(api: api).lines.map(\.movieID) == [9], "an older removal of 9 does not undo its addition either")
    }

    @Test("a newer list wins: its notes, its additions, and its removals, each logged once")
    func newerListWins() async throws {
        let store = try makeStore()
        try await store.replaceWatchlist(
            [WatchlistItem(movieID: 5, note: "a", changedAt: time), WatchlistItem(movieID: 7, note: "b", changedAt: time)], removals: [:], entityTag: nil, api: api
        )
        let position = try await store.watchlistLogPosition(api: api)
        try await store.replaceWatchlist(
            [WatchlistItem(movieID: 7, note: "c", changedAt: time + 10), WatchlistItem(movieID: 8, note: "d", changedAt: time + 20)],
            removals: [5: time + 5], entityTag: nil, api: api
        )
        #expect(try await store.watchlist(api: api).lines.map(\.note).sorted() == ["c", "d"])
        let kinds = try await store.watchlistChanges(after: position, api: api).map { "\($0.movieID) \($0.kind)" }
        #expect(kinds == ["5 removed", "7 noteChanged", "8 added"])
    }

    @Test("what a pull learned is logged in the order it happened, the latest last, not in the movies' order")
    func mergeLogsInTimeOrder() async throws {
        let store = try makeStore()
        try await store.replaceWatchlist([WatchlistItem(movieID: 5, note: "a", changedAt: time)], removals: [:], entityTag: nil, api: api)
        let position = try await store.watchlistLogPosition(api: api)
        try await store.replaceWatchlist(
            [WatchlistItem(movieID: 9, note: "first", changedAt: time + 10), WatchlistItem(movieID: 3, note: "last", changedAt: time + 30)],
            removals: [5: time + 20], entityTag: nil, api: api
        )
        let logged = try await store.watchlistChanges(after: position, api: api).map { "\($0.movieID) \($0.kind)" }
        #expect(logged == ["9 added", "5 removed", "3 added"])
    }

    @Test("a known movie the list does not name goes, unless the feed brought it after the list was read; an empty list empties the known one")
    func unnamedMoviesGo() async throws {
        let store = try makeStore()
        try await store.replaceWatchlist([WatchlistItem(movieID: 5, note: "old", changedAt: time)], removals: [:], entityTag: nil, api: api)
        #expect(try await store.applyLiveUpdate(event(9, "new", at: time + 1000, cursor: 1), api: api))
        try await store.replaceWatchlist([WatchlistItem(movieID: 7, note: "listed", changedAt: time + 500)], removals: [:], entityTag: nil, api: api)
        #expect(try await store.watchlist(api: api).lines.map(\.movieID).sorted() == [7, 9], "5 is gone from the server; 9 came after the list")
        try await store.replaceWatchlist([], removals: [:], entityTag: nil, api: api)
        #expect(try await store.watchlist(api: api).lines.isEmpty, "a server that lost its lists (a memory server started again)")
    }

    @Test("a known movie the store learned of after the list was asked for stays, though older than what the list names; one learned before goes")
    func learnedAfterAskingStays() async throws {
        let store = try makeStore()
        try await store.replaceWatchlist([WatchlistItem(movieID: 5, note: "old", changedAt: time)], removals: [:], entityTag: nil, api: api)
        #expect(try await store.applyLiveUpdate(event(8, "before asking", at: time + 100, cursor: 1), api: api))
        let asked = try await store.watchlistLogPosition(api: api)
        // Committed at the server after the list was read, from a device whose clock ran behind.
        #expect(try await store.applyLiveUpdate(event(9, "after asking", at: time + 200, cursor: 2), api: api))
        let logged = try await store.watchlistLogPosition(api: api)
        try await store.replaceWatchlist(
            [WatchlistItem(movieID: 7, note: "listed", changedAt: time + 500)], removals: [:], entityTag: nil, api: api, askedAtLogPosition: asked
        )
        #expect(try await store.watchlist(api: api).lines.map(\.movieID).sorted() == [7, 9])
        let changes = try await store.watchlistChanges(after: logged, api: api)
        #expect(!changes.contains { $0.movieID == 9 }, "9 was neither removed nor added again: a window prints it once")
    }

    @Test("a server that sends no removals is taken as it is")
    func serverWithoutRemovalsIsTakenAsItIs() async throws {
        let store = try makeStore()
        #expect(try await store.applyLiveUpdate(event(7, "new", at: time + 1000, cursor: 1), api: api))
        try await store.replaceWatchlist([WatchlistItem(movieID: 7, note: "old", changedAt: time)], entityTag: nil, api: api)
        #expect(try await store.watchlist(api: api).lines.map(\.note) == ["old"])
    }
}
