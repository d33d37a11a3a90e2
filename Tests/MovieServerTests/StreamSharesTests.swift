import Foundation
import Logging
import MarqueeTestSupport
@testable import MovieServer
import Testing

/// How the feed's streams are shared out (``StreamShares``): an address's cap, an account's, the
/// instance's last places kept for newcomers, and the counts under many concurrent opens and closes.
@Suite("Stream shares", .timeLimit(.minutes(2)))
struct StreamSharesTests {
    static func person(_ name: String, at address: String) -> StreamShares.Holder {
        StreamShares.Holder(reader: .person(owner: name), address: address)
    }

    @Test("one address holds at most its 8, whatever accounts it uses; one account at most its 4, from any addresses")
    func addressAndAccountCaps() throws {
        var shares = StreamShares(settings: FeedSettings())
        for index in 0..<8 { try shares.take(Self.person("sock\(index / 3)", at: "203.0.113.5")) }
        #expect(throws: StreamShares.Refusal.addressAtLimit) { try shares.take(Self.person("sock9", at: "203.0.113.5")) }
        for index in 0..<4 { try shares.take(Self.person("alice", at: "198.51.100.\(index)")) }
        #expect(throws: StreamShares.Refusal.personAtLimit) { try shares.take(Self.person("alice", at: "198.51.100.9")) }
        #expect(shares.total == 12)
        shares.release(Self.person("sock0", at: "203.0.113.5"))
        try shares.take(Self.person("sock7", at: "203.0.113.5"))
    }

    @Test("the last quarter goes only to a person who holds none from an address that holds none; full, the streams belong to at least that many addresses")
    func reserveForNewcomers() throws {
        var settings = FeedSettings(maximumStreams: 20, streamsPerPerson: 8, streamsPerAddress: 20)
        #expect(settings.reservedStreams == 5)
        var shares = StreamShares(settings: settings)
        for index in 0..<15 { try shares.take(Self.person("sock\(index % 3)", at: "203.0.113.5")) }
        #expect(throws: StreamShares.Refusal.reserved) { try shares.take(Self.person("sock4", at: "203.0.113.5")) }
        #expect(throws: StreamShares.Refusal.reserved) { try shares.take(Self.person("sock0", at: "203.0.113.6")) }
        try shares.take(Self.person("alice", at: "198.51.100.7"))
        #expect(throws: StreamShares.Refusal.reserved) { try shares.take(Self.person("alice", at: "198.51.100.8")) }
        for index in 0..<4 { try shares.take(Self.person("person\(index)", at: "192.0.2.\(index)")) }
        #expect(shares.total == 20)
        #expect(throws: StreamShares.Refusal.full) { try shares.take(Self.person("bob", at: "192.0.2.99")) }
        #expect(shares.addressCount >= settings.reservedStreams)
        settings.maximumStreams = 3
        #expect(settings.reservedStreams == 0, "an instance of 3 streams keeps none back")
    }

    @Test("applications' own tokens count against their address too, and against their own shares")
    func applications() throws {
        var shares = StreamShares(settings: FeedSettings(maximumStreams: 8, streamsPerAddress: 8, streamsPerApplication: 3))
        let app = StreamShares.Holder(reader: .application(clientID: "phone-app"), address: "10.0.0.1")
        for _ in 0..<3 { try shares.take(app) }
        #expect(throws: StreamShares.Refusal.applicationAtLimit) { try shares.take(app) }
        #expect(shares.held(from: "10.0.0.1") == 3 && shares.applicationStreams == 3)
    }

    @Test("200 tasks opening and closing streams from 20 addresses and 50 accounts at once: every place is counted, the caps hold at every moment, and all are given back")
    func concurrentOpensAndCloses() async throws {
        let settings = FeedSettings(maximumStreams: 64, streamsPerPerson: 4, streamsPerAddress: 8)
        let feed = EventFeed(storage: MemoryStorage(catalog: try Catalog.reference()), settings: settings, logger: Logger(label: "test"))
        let sink = SilentSink()
        let opened = await withTaskGroup(of: Int.self) { group in
            for task in 0..<200 {
                group.addTask {
                    var held: [UInt64] = [], count = 0
                    for round in 0..<25 {
                        let reader = EventFeed.Reader.person(owner: "account\((task + round) % 50)")
                        if let id = try? await feed.subscribe(reader, from: "203.0.113.\((task * 7 + round) % 20)", sink: sink) {
                            held.append(id)
                            count += 1
                        }
                        let shares = feed.shares
                        #expect(shares.total <= 64 && shares.addressCount <= 20)
                        if round % 3 == 2, !held.isEmpty { feed.unsubscribe(held.removeFirst()) }
                    }
                    for id in held { feed.unsubscribe(id) }
                    return count
                }
            }
            return await group.reduce(0, +)
        }
        #expect(opened > 64, "places were taken and given back many times over")
        let shares = feed.shares
        #expect(shares.total == 0 && shares.addressCount == 0 && feed.streamCount == 0)

        let held = await withTaskGroup(of: UInt64?.self) { group in
            for task in 0..<100 {
                group.addTask { try? await feed.subscribe(.person(owner: "sock\(task)"), from: "203.0.113.5", sink: sink) }
            }
            return await group.compactMap { $0 }.reduce(into: [UInt64]()) { $0.append($1) }
        }
        #expect(held.count == 8, "one address, a hundred accounts, opened at once: exactly its 8")
        #expect(feed.shares.held(from: "203.0.113.5") == 8)
        for id in held { feed.unsubscribe(id) }
        #expect(feed.shares.total == 0)
    }
}

/// A sink that drops what it is given.
private final class SilentSink: FeedSink {
    func receive(_ events: [FeedEvent]) {}
    func heartbeat() {}
    func signInMayHaveEnded() {}
}
