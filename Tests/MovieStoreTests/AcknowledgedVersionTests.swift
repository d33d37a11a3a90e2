import Foundation
import Movies
import MovieStore
import Testing

/// The version a store keeps for a change the server applied: the server's, and never older than
/// what the store already knows (found by scripts/chaos: a window printed a movie's older note
/// after a newer one, when the answer to a sync arrived after the live feed's newer event).
@Suite("The versions of acknowledged changes")
struct AcknowledgedVersionTests {
    let api = "http://watch.test/api/"
    let serverNow: Int64 = 1_800_000_000_000

    @Test("a change stamped a day ahead is kept at the time the server ordered it by, so another device's later change still applies")
    func serverTimeIsKept() async throws {
        let store = try makeStore()
        let service = RecordingWatchlistService(orderedAt: serverNow + 300_000)
        let dayAhead = Date(timeIntervalSince1970: Double(serverNow) / 1000 + 86_400)
        _ = try await store.recordWatchlistChange(movieID: 6, action: .add, note: "mine", api: api, now: dayAhead)
        _ = try await WatchlistSync(service: service, store: store, api: api).push()
        #expect(try await store.watchlist(api: api).lines.map(\.changedAt) == [serverNow + 300_000])
        let other = LiveUpdate.watchlist(WatchlistItem(movieID: 6, note: "theirs", changedAt: serverNow + 400_000), removed: false, cursor: "2")
        #expect(try await store.applyLiveUpdate(other, api: api))
        #expect(try await store.watchlist(api: api).lines.map(\.note) == ["theirs"])
    }

    @Test("a change made while the movie's earlier one waits (its answer lost) is stamped two milliseconds after it, past the one the server may add when the earlier one wins a tie, whatever this clock says (found by scripts/chaos --seed 1)")
    func nextChangeClearsATieWinnersMillisecond() async throws {
        let store = try makeStore()
        let frozenAhead = Date(timeIntervalSince1970: Double(serverNow) / 1000 + 30)
        let first = try await store.recordWatchlistChange(movieID: 6, action: .add, note: "drawn", api: api, now: frozenAhead)
        let afterTheDraw = Date(timeIntervalSince1970: Double(serverNow) / 1000 + 1)
        let next = try await store.recordWatchlistChange(movieID: 6, action: .remove, api: api, now: afterTheDraw)
        #expect(next.changedAt == first.changedAt + 2)
    }

    @Test("a repeat whose first answer was lost and which lost then is kept as lost: the store's list does not show it in force")
    func repeatThatLostStaysLost() async throws {
        let store = try makeStore()
        let service = RecordingWatchlistService()
        let mine = try await store.recordWatchlistChange(movieID: 6, action: .add, note: "mine", api: api, now: Date(timeIntervalSince1970: Double(serverNow) / 1000))
        service.supersedeWithoutAnswering([mine])
        let report = try await WatchlistSync(service: service, store: store, api: api).push()
        #expect(report == .sent([.repeated: 1], unknownMovies: []))
        let view = try await store.watchlist(api: api)
        #expect(view.lines.isEmpty, "not on the list: the change lost when the server first took it")
        #expect(view.pendingChanges == 0)
    }

    @Test("a repeat whose first answer was lost is kept at the time the server names, so the device's next change of the movie is stamped after it whatever its clock says")
    func repeatKeepsTheServersTime() async throws {
        let store = try makeStore()
        let service = RecordingWatchlistService(orderedAt: serverNow + 300_000)
        let dayAhead = Date(timeIntervalSince1970: Double(serverNow) / 1000 + 86_400)
        let first = try await store.recordWatchlistChange(movieID: 6, action: .add, note: "first", api: api, now: dayAhead)
        try await service.takeWithoutAnswering([first])
        let report = try await WatchlistSync(service: service, store: store, api: api).push()
        #expect(report == .sent([.repeated: 1], unknownMovies: []), "reported as the repeat it is")
        #expect(try await store.watchlist(api: api).lines.map(\.changedAt) == [serverNow + 300_000])
        let behind = Date(timeIntervalSince1970: Double(serverNow) / 1000 - 3_600)
        let next = try await store.recordWatchlistChange(movieID: 6, action: .add, note: "next", api: api, now: behind)
        #expect(next.changedAt > serverNow + 300_000, "stamped after the version the server keeps, though this clock is an hour behind")
    }

    @Test("an answer that arrives after the live feed brought a newer change of the movie leaves the newer one, and logs nothing")
    func newerKnownStateStays() async throws {
        let store = try makeStore()
        let mine = try await store.recordWatchlistChange(movieID: 6, action: .add, note: "mine", api: api, now: Date(timeIntervalSince1970: Double(serverNow) / 1000))
        let newer = LiveUpdate.watchlist(WatchlistItem(movieID: 6, note: "newer", changedAt: serverNow + 1000), removed: false, cursor: "3")
        #expect(try await store.applyLiveUpdate(newer, api: api))
        let position = try await store.watchlistLogPosition(api: api)
        try await store.acknowledgeWatchlistChanges([(mine, .applied)], api: api)
        #expect(try await store.watchlist(api: api).lines.map(\.note) == ["newer"])
        #expect(try await store.watchlistChanges(after: position, api: api).isEmpty)
        #expect(try await store.pendingWatchlistChanges(api: api).isEmpty, "the change left the outbox all the same")
    }

    @Test("a removal's answer that arrives after a newer addition leaves the movie on the list")
    func newerAdditionStays() async throws {
        let store = try makeStore()
        try await store.replaceWatchlist([WatchlistItem(movieID: 6, note: "on", changedAt: serverNow - 1000)], entityTag: nil, api: api)
        let removal = try await store.recordWatchlistChange(movieID: 6, action: .remove, api: api, now: Date(timeIntervalSince1970: Double(serverNow) / 1000))
        let newer = LiveUpdate.watchlist(WatchlistItem(movieID: 6, note: "back", changedAt: serverNow + 1000), removed: false, cursor: "4")
        #expect(try await store.applyLiveUpdate(newer, api: api))
        try await store.acknowledgeWatchlistChanges([(removal, .applied)], api: api)
        #expect(try await store.watchlist(api: api).lines.map(\.note) == ["back"])
    }
}
