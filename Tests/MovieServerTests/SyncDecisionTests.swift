@testable import MovieServer
import MovieContract
import Testing

/// The sync engine's rule on a kind of record other than the watchlist: a made-up kind keyed by
/// text, whose only code is its two types, decided as the watchlist is.
@Suite("The sync engine's rule on any kind of record")
struct SyncDecisionTests {
    struct Score: SyncedRecord {
        var key: String
        var value: Int?
        var version: WatchlistVersion
    }

    struct ScoreChange: SyncedChange {
        var id: String
        var key: String
        var value: Int?
        var changedAt: Int64
        var device: String
        var fingerprint: [UInt8] { Array("\(key)|\(value ?? -1)|\(changedAt)|\(device)".utf8) }
        var record: Score { Score(key: key, value: value, version: version) }
        func ordered(at changedAt: Int64) -> ScoreChange { ScoreChange(id: id, key: key, value: value, changedAt: changedAt, device: device) }
    }

    static let latest: Int64 = 10_000

    static func decide(_ changes: [ScoreChange], seen: [String: SeenChange] = [:], stored: [String: Score] = [:]) -> SyncDecision<ScoreChange>? {
        try? SyncDecision.decide(changes, seen: seen, stored: stored, latest: latest, refusal: { $0 == "unknown" ? .unknownMovie : nil }).get()
    }

    @Test("the later version wins, the earlier loses, a removal is kept as a tombstone, and the written records are the last per key, in key order")
    func lastWriterWins() throws {
        let decision = try #require(Self.decide([
            ScoreChange(id: "1", key: "b", value: 7, changedAt: 100, device: "d"),
            ScoreChange(id: "2", key: "a", value: 3, changedAt: 100, device: "d"),
            ScoreChange(id: "3", key: "b", value: nil, changedAt: 101, device: "e"),
            ScoreChange(id: "4", key: "a", value: 9, changedAt: 99, device: "e"),
        ]))
        #expect(decision.outcomes.map(\.outcome) == [.applied, .applied, .applied, .superseded])
        #expect(decision.written.map(\.key) == ["a", "b"])
        #expect(decision.written.map(\.value) == [3, nil])
        #expect(decision.journal.map(\.outcome) == [.applied, .applied, .applied, .superseded])
    }

    @Test("a seen id is a repeat naming its first time and is not journaled again; the same id with other content refuses the whole write; an unknown key changes nothing")
    func repeatsAndUnknownKeys() throws {
        let first = ScoreChange(id: "1", key: "a", value: 5, changedAt: 100, device: "d")
        let seen = ["1": SeenChange(fingerprint: first.fingerprint, orderedAt: 100)]
        let decision = try #require(Self.decide([first, ScoreChange(id: "2", key: "unknown", value: 1, changedAt: 100, device: "d")], seen: seen))
        #expect(decision.outcomes.map(\.outcome) == [.repeated, .unknownMovie])
        #expect(decision.outcomes.first?.orderedAt == 100)
        #expect(decision.journal.map(\.change.id) == ["2"])
        #expect(decision.written.isEmpty)
        var other = first
        other.value = 6
        #expect(Self.decide([other], seen: seen) == nil)
    }

    @Test("a change from a clock far ahead is ordered at the server's bound, and the same device's next one just after it")
    func clockAhead() throws {
        let decision = try #require(Self.decide([
            ScoreChange(id: "1", key: "a", value: 1, changedAt: 1_000_000, device: "d"),
            ScoreChange(id: "2", key: "a", value: 2, changedAt: 1_000_001, device: "d"),
        ]))
        #expect(decision.outcomes.map(\.orderedAt) == [Self.latest, Self.latest + 1])
        #expect(decision.written.map(\.value) == [2])
    }
}
