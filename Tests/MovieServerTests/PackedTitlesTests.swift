@testable import MovieServer
import Testing

/// How a title stands to a search's words, told from the title's first bytes where they suffice.
@Suite("Titles' bonus")
struct PackedTitlesTests {
    @Test("the bonus is the documented one for every title and words of a small alphabet, short and long")
    func bonusAsDocumented() {
        let words = ["a", "b", "ab", "ba", "abc", "abcd", "abcde"]
        var titles: [String] = []
        for first in words {
            titles.append(" \(first) ")
            for second in words { titles.append(" \(first) \(second) ") }
        }
        let packed = PackedTitles(count: titles.count) { titles[$0] }
        var checked = 0
        for query in words.map({ [$0] }) + words.flatMap({ first in words.map { [first, $0] } }) {
            let start = " " + query.joined(separator: " "), whole = start + " "
            let bonuses = packed.withBonus(start: Array(start.utf8), whole: Array(whole.utf8)) { bonus in titles.indices.map(bonus) }
            for (title, bonus) in zip(titles, bonuses) {
                let expected = title == whole ? 3 : title.hasPrefix(whole) ? 2 : title.hasPrefix(start) ? 1 : 0
                #expect(bonus == expected, "'\(title)' for '\(start)'")
                checked += expected == 3 ? 1 : 0
            }
        }
        #expect(checked > 10, "titles that are the words, short and long")
    }
}
