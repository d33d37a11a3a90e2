import FileLocking
import Foundation
import MovieContract
import MovieStore
import Movies
import Synchronization
import Testing

/// A watchlist server in memory that applies every change, records the keys it was sent, and
/// can be told to fail.
final class RecordingWatchlistService: WatchlistService {
    struct Down: Error {}
    struct NoSuchPath: Error {}

    private let state = Mutex<(keys: [String], applied: [String], items: [Int: WatchlistItem], failure: (any Error)?, orderedTimes: [String: Int64])>(
        ([], [], [:], nil, [:])
    )

    /// The time this server orders every applied change by, as a server does for a clock too far ahead.
    let orderedAt: Int64?

    init(orderedAt: Int64? = nil) {
        self.orderedAt = orderedAt
    }

    var keys: [String] { state.withLock { $0.keys } }
    var applied: [String] { state.withLock { $0.applied } }
    func fail(with error: (any Error)?) { state.withLock { $0.failure = error } }

    /// Takes `changes` as if an earlier answer to them had been lost: their next send is a repeat.
    func takeWithoutAnswering(_ changes: [WatchlistChangeRecord]) async throws {
        _ = try await apply(changes, key: "lost")
    }

    private let superseded = Mutex<Set<String>>([])

    /// Takes `changes` as superseded by another device's newer ones, as if the answer had been
    /// lost: their next send is a repeat that names them lost.
    func supersedeWithoutAnswering(_ changes: [WatchlistChangeRecord]) {
        superseded.withLock { $0.formUnion(changes.map(\.id)) }
        state.withLock { state in
            for change in changes {
                state.applied.append(change.id)
                state.orderedTimes[change.id] = change.changedAt
            }
        }
    }

    func watchlist(ifNoneMatch entityTag: String?) async throws -> Revalidation<WatchlistSnapshot> {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            let items = state.items.values.sorted { $0.changedAt > $1.changedAt }
            return .modified(WatchlistSnapshot(items: items), Freshness(entityTag: "\"\(state.applied.count)\"", maxAge: nil, mayStore: true))
        }
    }

    func apply(_ changes: [WatchlistChangeRecord], key: String) async throws -> [WatchlistChangeResult] {
        try state.withLock { state in
            state.keys.append(key)
            if let failure = state.failure { throw failure }
            return changes.map { change in
                if state.applied.contains(change.id) {
                    let lost = superseded.withLock { $0.contains(change.id) }
                    return WatchlistChangeResult(.repeated, orderedAt: state.orderedTimes[change.id], firstOutcome: lost ? .superseded : .applied)
                }
                state.applied.append(change.id)
                let time = orderedAt ?? change.changedAt
                state.orderedTimes[change.id] = time
                state.items[change.movieID] = change.action == .add ? WatchlistItem(movieID: change.movieID, note: change.note, changedAt: time) : nil
                return WatchlistChangeResult(.applied, orderedAt: orderedAt)
            }
        }
    }

    func meansNoWatchlist(_ failure: any Error) -> Bool { failure is NoSuchPath }
}

@Suite("The watchlist in the store")
struct WatchlistStoreTests {
    let api = "http://watch.test/api/"

    @Test("changes wait in the outbox in the order made, each with its own id, a movie's times rising even when the clock goes back")
    func outbox() async throws {
        let store = try makeStore()
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let first = try await store.recordWatchlistChange(movieID: 1, action: .add, note: "a", api: api, now: now)
        let second = try await store.recordWatchlistChange(movieID: 2, action: .add, api: api, now: now - 3600)
        let third = try await store.recordWatchlistChange(movieID: 1, action: .remove, note: "ignored", api: api, now: now - 7200)
        #expect(try await store.pendingWatchlistChanges(api: api) == [first, second, third])
        #expect(first.changedAt < third.changedAt, "a movie's changes rise")
        #expect(second.changedAt == WatchlistClock.now(now - 3600), "another movie's change keeps the clock's time")
        #expect(third.note == "", "a removal keeps no note")
        #expect(Set([first.id, second.id, third.id]).count == 3)
        #expect(first.device == third.device && !first.device.isEmpty, "one device id per store")
        #expect(try await store.pendingWatchlistChanges(api: "http://other.test/api/").isEmpty, "per API")
    }

    @Test("the view is the known list with pending changes on top, each marked; an acknowledged change leaves the outbox and stays on the list")
    func view() async throws {
        let store = try makeStore()
        try await store.saveMovies([Fixtures.movie(1, name: "Heat")], api: api, fetchedAt: Date())
        try await store.replaceWatchlist([WatchlistItem(movieID: 1, note: "known", changedAt: 10), WatchlistItem(movieID: 2, note: "", changedAt: 20)], entityTag: "\"e\"", api: api)
        let renote = try await store.recordWatchlistChange(movieID: 1, action: .add, note: "again", api: api)
        let remove = try await store.recordWatchlistChange(movieID: 2, action: .remove, api: api)
        _ = try await store.recordWatchlistChange(movieID: 3, action: .add, api: api)
        _ = try await store.recordWatchlistChange(movieID: 3, action: .remove, api: api)
        var view = try await store.watchlist(api: api)
        #expect(view.lines.map(\.movieID) == [2, 1])
        #expect(view.lines.map(\.pending) == [.removing, .adding])
        #expect(view.lines.last?.note == "again")
        #expect(view.lines.last?.movie?.name == "Heat")
        #expect(view.pendingChanges == 4)
        #expect(view.movieIDs == [1])
        #expect(try await store.watchlistEntityTag(api: api) == "\"e\"")

        try await store.acknowledgeWatchlistChanges([(renote, .applied), (remove, .superseded)], api: api)
        view = try await store.watchlist(api: api)
        #expect(view.pendingChanges == 2)
        #expect(view.lines.map(\.movieID) == [1, 2], "a superseded removal leaves the known list as it was")
        #expect(view.lines.map(\.pending) == [nil, nil])
        #expect(view.lines.first?.note == "again")
    }

    @Test("an entry stamped far in the future holds back only its own movie on its own API, and never past what the wire carries")
    func farFutureEntry() async throws {
        let store = try makeStore()
        let other = "http://other.test/api/"
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let year2999 = try #require(WatchlistClock.milliseconds("2999-01-01T00:00:00.000Z"))
        try await store.replaceWatchlist([WatchlistItem(movieID: 1, note: "", changedAt: year2999), WatchlistItem(movieID: 9, note: "", changedAt: WatchlistClock.latest)], entityTag: nil, api: api)
        let sameMovie = try await store.recordWatchlistChange(movieID: 1, action: .remove, api: api, now: now)
        #expect(sameMovie.changedAt == year2999 + 1)
        let pendingAfter = try await store.recordWatchlistChange(movieID: 1, action: .add, api: api, now: now)
        #expect(pendingAfter.changedAt == year2999 + 3, "after the pending change too, and the millisecond the server may order it late")
        let otherMovie = try await store.recordWatchlistChange(movieID: 2, action: .add, api: api, now: now)
        #expect(otherMovie.changedAt == WatchlistClock.now(now))
        let otherAPI = try await store.recordWatchlistChange(movieID: 1, action: .add, api: other, now: now)
        #expect(otherAPI.changedAt == WatchlistClock.now(now))
        let atTheEnd = try await store.recordWatchlistChange(movieID: 9, action: .remove, api: api, now: now)
        #expect(atTheEnd.changedAt == WatchlistClock.latest)
        #expect(WatchlistClock.milliseconds(WatchlistClock.string(atTheEnd.changedAt)) == atTheEnd.changedAt, "the wire carries it")
    }

    @Test("a feed event at or before the position the last list was read at is in that list already: passed over, whatever its time; one after it is applied")
    func eventsTheListHolds() async throws {
        let store = try makeStore()
        try await store.replaceWatchlist([WatchlistItem(movieID: 1, note: "listed", changedAt: 1_000)], removals: [:], entityTag: nil, api: api, feedPosition: 50)
        let stale = WatchlistItem(movieID: 2, note: "added, then removed before the list was read", changedAt: 9_000)
        #expect(try await !store.applyLiveUpdate(.watchlist(stale, removed: false, cursor: "40"), api: api))
        #expect(try await !store.applyLiveUpdate(.watchlist(stale, removed: false, cursor: "50"), api: api))
        #expect(try await store.watchlist(api: api).lines.map(\.movieID) == [1])
        let later = WatchlistItem(movieID: 3, note: "after the list", changedAt: 2_000)
        #expect(try await store.applyLiveUpdate(.watchlist(later, removed: false, cursor: "51"), api: api))
        #expect(try await store.watchlist(api: api).lines.map(\.movieID).sorted() == [1, 3])
    }

    @Test("an API removed with no watchlist left takes its live cursor and its removals with it: the API given its id next inherits neither")
    func removedAPILeavesNothing() async throws {
        let store = try makeStore()
        let other = "http://other.test/api/"
        try await store.saveMovies([Fixtures.movie(1)], api: api, fetchedAt: Date())
        try await store.applyLiveUpdate(.watchlist(WatchlistItem(movieID: 1, note: "", changedAt: 5_000), removed: true, cursor: "40"), api: api)
        #expect(try await store.liveCursor(api: api) == "40")
        #expect(try await store.removeAPI(api))

        try await store.saveMovies([Fixtures.movie(2)], api: other, fetchedAt: Date())
        #expect(try await store.liveCursor(api: other) == nil, "not the removed API's cursor")
        let back = WatchlistItem(movieID: 1, note: "back", changedAt: 4_000)
        #expect(try await store.applyLiveUpdate(.watchlist(back, removed: false, cursor: "1"), api: other), "neither a replay nor older than a removal of its own")
        #expect(try await store.watchlist(api: other).lines.map(\.movieID) == [1])
    }

    @Test("clearing an API's cache keeps its watchlist and outbox")
    func cacheClearKeepsWatchlist() async throws {
        let store = try makeStore()
        try await store.saveMovies([Fixtures.movie(1)], api: api, fetchedAt: Date())
        try await store.replaceWatchlist([WatchlistItem(movieID: 1, note: "", changedAt: 1)], entityTag: nil, api: api)
        _ = try await store.recordWatchlistChange(movieID: 2, action: .add, api: api)
        #expect(try await store.removeAPI(api))
        let view = try await store.watchlist(api: api)
        #expect(view.lines.map(\.movieID).sorted() == [1, 2])
        #expect(view.pendingChanges == 1)
    }

    @Test("a push sends batches oldest first under keys made from their ids (the same batch, the same key), and a failed push leaves the outbox whole")
    func push() async throws {
        let store = try makeStore()
        let service = RecordingWatchlistService()
        for movie in 1...5 { _ = try await store.recordWatchlistChange(movieID: movie, action: .add, api: api) }
        let sync = WatchlistSync(service: service, store: store, api: api, batchSize: 2)

        service.fail(with: RecordingWatchlistService.Down())
        await #expect(throws: WatchlistSyncFailure<any Error>.self) { try await sync.push() }
        #expect(try await store.pendingWatchlistChanges(api: api).count == 5)

        service.fail(with: nil)
        let pending = try await store.pendingWatchlistChanges(api: api)
        let report = try await sync.sync()
        #expect(report.delivered == 5)
        #expect(service.applied == pending.map(\.id), "in the order made")
        #expect(service.keys.count == 4)
        #expect(service.keys[0] == service.keys[1], "the failed batch is sent again under its key")
        #expect(Set(service.keys).count == 3)
        #expect(try await store.pendingWatchlistChanges(api: api).isEmpty)
        #expect(try await store.watchlist(api: api).lines.count == 5)
        #expect(try await sync.push() == .sent([:], unknownMovies: []), "nothing left to send")
    }

    @Test("a server without a watchlist is remembered: the list is kept here, the changes stay")
    func noWatchlist() async throws {
        let store = try makeStore()
        let service = RecordingWatchlistService()
        service.fail(with: RecordingWatchlistService.NoSuchPath())
        _ = try await store.recordWatchlistChange(movieID: 1, action: .add, api: api)
        let sync = WatchlistSync(service: service, store: store, api: api)
        await #expect {
            try await sync.push()
        } throws: { error in
            if case .noWatchlist = error as? WatchlistSyncFailure<any Error> { return true }
            return false
        }
        let view = try await store.watchlist(api: api)
        #expect(view.serverHasNone)
        #expect(view.pendingChanges == 1)
    }

    @Test("a push that must not wait leaves the outbox to the process holding the lock")
    func busy() async throws {
        let store = try makeStore()
        let service = RecordingWatchlistService()
        _ = try await store.recordWatchlistChange(movieID: 1, action: .add, api: api)
        let sync = WatchlistSync(service: service, store: store, api: api)
        let holding = FileLock(url: WatchlistSync<RecordingWatchlistService>.lockURL(for: store.url))
        let whileHeld = try await holding.withLock { try await sync.push(waiting: false) }
        #expect(whileHeld == .busy)
        #expect(service.keys.isEmpty)
        #expect(try await sync.push(waiting: false).delivered == 1)
    }
}
