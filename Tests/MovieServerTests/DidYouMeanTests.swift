import MarqueeTestSupport
import MovieContract
@testable import MovieServer
import SearchPlanning
import Testing

@Suite("Did you mean: the rule")
struct DidYouMeanTests {
    private static let index = MemorySearchIndex(SuggestionCatalogue.entries.map { entry in
        CatalogMovie(
            name: entry.title, id: entry.id, year: entry.year, releaseDate: "\(entry.year)-01-01",
            grossing: 1_000 * entry.id, rating: 50, cast: entry.cast.map(CatalogMovie.Actor.init)
        )
    })

    private func suggestion(_ query: String, year: Int? = nil) -> SearchSuggestion? {
        Self.index.suggestion(for: SearchText.words(query), year: year, latestYear: 2027)
    }

    @Test("the issue's typos: each suggests the query meant, with the year and how many movies it finds")
    func typos() {
        for typo in SuggestionCatalogue.typos {
            #expect(suggestion(typo.typed) == SearchSuggestion(query: typo.query, year: typo.year, movies: typo.movies), "\(typo.typed)")
        }
    }

    @Test("no suggestion for a query found as typed, a last word that starts a word, a year that is a title, nothing near")
    func nothingSuggested() {
        for query in SuggestionCatalogue.withoutSuggestion {
            #expect(suggestion(query) == nil, "\(query)")
        }
    }

    @Test("the last word counts as a prefix, every other as a whole word")
    func prefixRule() {
        #expect(suggestion("zoot") == nil)
        #expect(suggestion("zootopi goodwin") == SearchSuggestion(query: "zootopia goodwin", year: nil, movies: 1))
    }

    @Test("a year asked keeps the search to it, and no number is read as a second year")
    func yearAsked() {
        #expect(suggestion("zootopa", year: 2016) == SearchSuggestion(query: "zootopia", year: 2016, movies: 1))
        #expect(suggestion("zootopa", year: 2015) == nil)
        #expect(suggestion("doctor strange 2016", year: 2016) == nil)
    }

    @Test("a number is a year from 1888 to the latest year allowed, four digits, and not the whole query")
    func years() {
        #expect(Spelling.year(in: "1888", latestYear: 2027) == 1888)
        #expect(Spelling.year(in: "1887", latestYear: 2027) == nil)
        #expect(Spelling.year(in: "2027", latestYear: 2027) == 2027)
        #expect(Spelling.year(in: "2028", latestYear: 2027) == nil)
        #expect(Spelling.year(in: "02016", latestYear: 2027) == nil)
        #expect(Spelling.year(in: "２０１６", latestYear: 2027) == nil)
        #expect(suggestion("2016") == nil, "a number is not corrected to another")
        #expect(Self.index.suggestion(for: ["doctor", "strange", "2016"], year: nil, latestYear: 2015) == nil)
    }

    @Test("up to 4 letters one edit is allowed, beyond two")
    func allowedEdits() {
        #expect(Spelling.allowedEdits("rivr") == 1)
        #expect(Spelling.allowedEdits("rivrs") == 2)
        #expect(Spelling.allowedEdits("élan") == 1)
        #expect(suggestion("rvr") == nil, "river is two edits from rvr")
    }

    @Test("edits: insertions, deletions, replacements, and swapped neighbours count one each")
    func distances() {
        func distance(_ a: String, _ b: String, limit: Int = 3) -> Int? {
            EditDistance.distance(Array(a.unicodeScalars), Array(b.unicodeScalars), limit: limit)
        }
        #expect(distance("jungel", "jungle") == 1)
        #expect(distance("vs", "v") == 1)
        #expect(distance("zootopa", "zootopia") == 1)
        #expect(distance("rivr", "riva") == 1)
        #expect(distance("élan", "elan") == 1)
        #expect(distance("ca", "abc") == 3, "a swap is not followed by an insertion between its letters")
        #expect(distance("kitten", "sitting") == 3)
        #expect(distance("kitten", "sitting", limit: 2) == nil)
        #expect(distance("", "abc") == 3)
    }

    @Test("the letters' mask never turns away a word within the edits allowed (5,000 seeded pairs)")
    func maskIsSafe() {
        var random = SeededGenerator(seed: 57)
        let letters = Array("abcdeé0ж".unicodeScalars)
        for _ in 0..<5_000 {
            let a = (0..<Int.random(in: 0...6, using: &random)).map { _ in letters.randomElement(using: &random)! }
            var b = a
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                switch Int.random(in: 0...3, using: &random) {
                case 0: b.insert(letters.randomElement(using: &random)!, at: Int.random(in: 0...b.count, using: &random))
                case 1 where !b.isEmpty: b.remove(at: Int.random(in: 0..<b.count, using: &random))
                case 2 where !b.isEmpty: b[Int.random(in: 0..<b.count, using: &random)] = letters.randomElement(using: &random)!
                default: if b.count > 1 { let i = Int.random(in: 1..<b.count, using: &random); b.swapAt(i - 1, i) }
                }
            }
            guard let edits = EditDistance.distance(a, b, limit: 3) else { continue }
            #expect(LetterMask(a).mayBeWithin(edits, of: LetterMask(b)), "\(String(String.UnicodeScalarView(a))) \(String(String.UnicodeScalarView(b)))")
        }
        #expect(!LetterMask("abc".unicodeScalars).mayBeWithin(1, of: LetterMask("xyz".unicodeScalars)))
    }

    @Test("among words as near, the one more movies hold comes first, then the word's order")
    func ties() {
        var candidates = SpellingCandidates(for: "rivr")
        candidates.consider("rive", movies: 5)
        candidates.consider("river", movies: 9)
        candidates.consider("riva", movies: 5)
        candidates.consider("rivers", movies: 50)
        #expect(candidates.best.map(\.word) == ["river", "riva", "rive"])
        #expect(Self.index.candidates(for: "vs").prefix(3).map(\.word) == ["us", "as", "v"])
    }

    @Test("a suggestion is a corrected query that finds movies: the nearest word alone may not")
    func correctedQueryIsRun() {
        #expect(Self.index.count(["batman", "us", "superman"], year: nil) == 0)
        #expect(suggestion("batman vs superman")?.query == "batman v superman")
    }

    @Test("counting a search's movies: each but the last a whole word, the last a prefix, of the year")
    func counting() {
        #expect(Self.index.count(["the", "jungle"], year: nil) == 2)
        #expect(Self.index.count(["the", "jungle"], year: 1967) == 1)
        #expect(Self.index.count(["jun"], year: nil) == 2)
        #expect(Self.index.count(["jun", "book"], year: nil) == 0)
        #expect(Self.index.count(["benedict", "d"], year: nil) == 2)
        #expect(Self.index.count(["u"], year: nil) == 3)
    }
}
