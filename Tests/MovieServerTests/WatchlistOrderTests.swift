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
        #expect(WatchlistPlan.order(Self.change("a"), latest: Self.latest, after: Self.stored("a")).changedAt == Self.time, "the same device's repeat of a time")
        #expect(WatchlistPlan.order(Self.change("a"), latest: Self.latest, after: Self.stored("b")).changedAt == Self.time, "a loses to b at one time")
        #expect(WatchlistPlan.order(Self.change("b", at: Self.time + 5), latest: Self.latest, after: Self.stored("a")).changedAt == Self.time + 5)
        #expect(WatchlistPlan.order(Self.change("b"), latest: Self.latest, after: nil).changedAt == Self.time)
    }

    @Test("no change is ordered more than a millisecond after its own time, whatever is stored: a device stamps its next change of a movie two milliseconds after a waiting one, and so after it")
    func neverMoreThanAMillisecondLate() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let sentTime = Self.time + Int64.random(in: -3...3, using: &generator)
            let storedTime = Self.time + Int64.random(in: -3...3, using: &generator)
            let sent = Self.change(["a", "b"].randomElement(using: &generator)!, at: sentTime)
            let stored = Bool.random(using: &generator) ? Self.stored(["a", "b"].randomElement(using: &generator)!, at: storedTime) : nil
            let latest = Self.time + Int64.random(in: -5...5, using: &generator)
            let ordered = WatchlistPlan.order(sent, latest: latest, after: stored)
            #expect(ordered.changedAt <= sentTime + 1, "\(sent.device)@\(sentTime) after \(String(describing: stored?.version)) with latest \(latest)")
        }
    }
}
