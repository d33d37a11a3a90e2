import MovieContract
import MovieServer
import Movies
import Testing

/// The time the server orders a watchlist change by (`WatchlistPlan.order`).
@Suite("Watchlist change order")
struct WatchlistOrderTests {
    static let time: Int64 = 1_800_000_000_000
    static let latest: Int64 = 1_900_000_000_000

    static func change(_ device: String, at time: Int64 = time) -> WatchlistChangeRecord {
        WatchlistChangeRecord(id: "c-\(device)-\(time)", movieID: 3, action: .add, note: device, changedAt: time, device: device)
    }

    static func stored(_ device: String, at time: Int64 = time) -> WatchlistEntry {
        WatchlistEntry(movieID: 3, note: device, version: WatchlistVersion(changedAt: time, device: device), removed: false)
    }

    @Test("another device's change in the same millisecond that wins the tie is ordered a millisecond later, so a movie's versions never share a time")
    func tieWinnerOrderedAfter() {
        let ordered = WatchlistPlan.order(Self.change("b"), latest: Self.latest, after: Self.stored("a"))
        #expect(ordered.changedAt == Self.time + 1)
        #expect(ordered.version > Self.stored("a").version)
    }

    @Test("a change that loses the tie, one of the same device, one at another time, or one with nothing stored keeps its time")
    func othersKeepTheirTime() {
        #expect(WatchlistPlan.order(Self.change("a"), latest: Self.latest, after: Self.stored("b")).changedAt == Self.time, "a loses to b at one time")
        #expect(WatchlistPlan.order(Self.change("b", at: Self.time + 5), latest: Self.latest, after: Self.stored("a")).changedAt == Self.time + 5)
        #expect(WatchlistPlan.order(Self.change("b"), latest: Self.latest, after: nil).changedAt == Self.time)
    }

    @Test("a device's change stamped a millisecond after its earlier one, which won a tie and was ordered a millisecond later in an answer the device lost, is ordered after it: sent again with it, the later change wins")
    func laterChangeOfATieWinnerWins() {
        let earlier = Self.change("b")
        let later = WatchlistChangeRecord(id: "c-b-later", movieID: 3, action: .remove, note: "", changedAt: Self.time + 1, device: "b")
        let write = WatchlistWrite(
            owner: "o", key: "k", request: "POST /api/watchlist/changes", body: Array("body".utf8), changes: [earlier, later], shape: .batch,
            receivedAt: Self.time
        )
        let state = WatchlistState(
            storedRequest: nil, seenChanges: [earlier.id: SeenChange(fingerprint: earlier.fingerprint, orderedAt: Self.time + 1)],
            entries: [3: Self.stored("b", at: Self.time + 1)], knownMovies: [3]
        )
        let plan = WatchlistPlan(write, state: state)
        #expect(plan.journal.map(\.outcome) == [.applied])
        #expect(plan.journal.first?.orderedAt == Self.time + 2)
        #expect(plan.entries.map(\.removed) == [true])
    }
}
