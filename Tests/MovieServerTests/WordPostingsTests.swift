@testable import MovieServer
import Testing

@Suite("The search index's packed words")
struct WordPostingsTests {
    private let movieWords: [[Substring]] = [
        ["star", "wars", "star"], ["stardust", "wars"], ["élan", "zorro"], ["starman"], ["zorro", "star"],
    ]

    @Test("a whole word gives its movies once each, ascending; a prefix gives a list per word it starts, in scalar order")
    func lists() {
        let postings = WordPostings(count: movieWords.count) { movieWords[$0] }
        #expect(postings.lists(for: "star", asPrefix: false).map(Array.init) == [[0, 4]])
        #expect(postings.lists(for: "sta", asPrefix: false).isEmpty)
        #expect(postings.lists(for: "star", asPrefix: true).map(Array.init) == [[0, 4], [1], [3]])
        #expect(postings.lists(for: "wars", asPrefix: true).map(Array.init) == [[0, 1]])
        #expect(postings.lists(for: "z", asPrefix: true).map(Array.init) == [[2, 4]])
        #expect(postings.lists(for: "é", asPrefix: true).map(Array.init) == [[2]])
        #expect(postings.lists(for: "zz", asPrefix: true).isEmpty)
        #expect(postings.lists(for: "", asPrefix: true).count == 6)
    }

    @Test("packed strings compare as their Unicode scalars do, and read back as written")
    func packedOrder() {
        let words = ["b", "ab", "a", "élan", "zorro", "", "abc", "Zorro"]
        let packed = PackedStrings(count: words.count) { words[$0] }
        for a in words.indices {
            #expect(packed.string(at: a) == words[a])
            for b in words.indices {
                let expected = words[a].unicodeScalars.lexicographicallyPrecedes(words[b].unicodeScalars)
                #expect((packed.compare(a, b) < 0) == expected, "\(words[a]) against \(words[b])")
                #expect((packed.compare(a, b) == 0) == (words[a] == words[b]))
            }
        }
    }
}
