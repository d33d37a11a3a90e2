import MarqueeTestSupport
import MovieContract
import Testing

/// The places of a list's items: between two there is always a third, none ends in `0`, and
/// growth at one spot stays well within the bound the server keeps.
@Suite("Fractional positions")
struct FractionalPositionTests {
    @Test("2,000 inserts at random places keep every position strictly between its neighbours, valid, and distinct")
    func randomInserts() {
        var generator = SeededGenerator(seed: 7)
        var positions: [String] = []
        for _ in 0..<2_000 {
            let place = Int.random(in: 0...positions.count, using: &generator)
            let made = FractionalPosition.between(place > 0 ? positions[place - 1] : nil, place < positions.count ? positions[place] : nil)
            positions.insert(made, at: place)
        }
        #expect(zip(positions, positions.dropFirst()).allSatisfy { $0 < $1 }, "strictly increasing")
        #expect(positions.allSatisfy { FractionalPosition.problem(with: $0) == nil })
        #expect(Set(positions).count == positions.count)
    }

    @Test("10,000 inserts at one spot: at the top or the end 165 digits (a digit every 61), between the first and the last inserted (the worst case) 2,001 (one every five), within the bound, still within the bound")
    func worstCase() {
        var top: String?, end: String?, afterFirst: String?
        let first = FractionalPosition.between(nil, nil)
        var previousTop = first
        for _ in 0..<10_000 {
            top = FractionalPosition.between(nil, top ?? previousTop)
            previousTop = top!
            end = FractionalPosition.between(end ?? first, nil)
            afterFirst = FractionalPosition.between(first, afterFirst)
        }
        #expect(top!.utf8.count <= 170, "the top: \(top!.utf8.count) digits")
        #expect(end!.utf8.count <= 170, "the end: \(end!.utf8.count) digits")
        #expect(afterFirst!.utf8.count <= 2_100 && afterFirst!.utf8.count < FractionalPosition.maximumLength, "after the first: \(afterFirst!.utf8.count) digits")
        #expect(top! < first && end! > first && afterFirst! > first)
    }

    @Test("an item placed where its position would outgrow half the bound gives every item a new, short place, in the same order")
    func respacing() {
        var others = FractionalPosition.evenlySpaced(3)
        #expect(FractionalPosition.placing(at: 1, among: others).count == 1, "a short position is the item's own")
        others[1] = others[0] + String(repeating: "0", count: FractionalPosition.maximumLength / 2) + "1"
        let placed = FractionalPosition.placing(at: 1, among: others)
        #expect(placed.count == 4 && placed.keys.sorted() == [0, 1, 2, 3])
        let ordered = (0..<4).compactMap { placed[$0] }
        #expect(zip(ordered, ordered.dropFirst()).allSatisfy { $0 < $1 } && ordered.allSatisfy { $0.utf8.count <= 2 })
    }

    @Test("evenly spaced positions are in order, valid and short")
    func evenlySpaced() {
        let positions = FractionalPosition.evenlySpaced(100_000)
        #expect(zip(positions, positions.dropFirst()).allSatisfy { $0 < $1 })
        #expect(positions.allSatisfy { FractionalPosition.problem(with: $0) == nil })
        #expect(positions.allSatisfy { $0.utf8.count == 4 }, "three digits for 100,000, and one that is not 0")
    }

    @Test("what is not a position: empty, a trailing 0, a byte outside the digits, too long")
    func notPositions() {
        for text in ["", "V0", "a-b", "é", String(repeating: "V", count: FractionalPosition.maximumLength + 1)] {
            #expect(FractionalPosition.problem(with: text) != nil, "\(text.prefix(10))")
        }
        #expect(FractionalPosition.problem(with: "V") == nil)
    }
}
