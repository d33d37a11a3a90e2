import MovieContract
import Movies
import Testing

/// The folding and tokenising rules written out by hand, so that a change to ``SearchText`` is
/// caught here, not shared by the oracle of every contract test.
@Suite("Search text, by hand")
struct SearchTextTests {
    @Test("inputs and their words", arguments: [
        ("Pokémon: Détective Pikachu", ["pokemon", "detective", "pikachu"]),
        ("POKÉMON the Movie", ["pokemon", "the", "movie"]),
        ("e\u{301}cole ne\u{303}e", ["ecole", "nee"]),
        ("Ærø Ångström", ["ærø", "angstrom"]),
        ("Renée Zellweger", ["renee", "zellweger"]),
        ("Ünal Öztürk", ["unal", "ozturk"]),
        ("2001: A Space Odyssey", ["2001", "a", "space", "odyssey"]),
        ("Zoo \"OR\" NEAR(Story) - Part*2", ["zoo", "or", "near", "story", "part", "2"]),
        ("Ocean's Eleven", ["ocean", "s", "eleven"]),
        ("WALL·E", ["wall", "e"]),
        ("ＷＡＬＬ－Ｅ １２", ["wall", "e", "12"]),
        ("千と千尋の神隠し", ["千と千尋の神隠し"]),
        ("千と千尋 の 神隠し", ["千と千尋", "の", "神隠し"]),
        ("Die Straße", ["die", "strasse"]),
        ("İstanbul ISPARTA ıspanak", ["istanbul", "isparta", "ıspanak"]),
        ("٣ Idiots", ["٣", "idiots"]),
        ("  --  ", []),
        ("", []),
    ])
    func words(text: String, expected: [String]) {
        #expect(SearchText.words(text) == expected, "\(text)")
    }

    @Test("the title key is the whole title folded, punctuation kept")
    func titleKey() {
        #expect(SearchText.folded("Pokémon: Détective Pikachu") == "pokemon: detective pikachu")
        #expect(SearchText.folded("ＡＢＣ") == "abc")
        let long = String(repeating: "Ab", count: 60) + "Z"
        #expect(SearchText.titleKey(long) == String(repeating: "ab", count: 50), "the first 100 code points of the folded title")
        #expect(SearchText.titleKey("e\u{301}" + String(repeating: "x", count: 150)).unicodeScalars.count == 100)
        #expect(SearchText.titleKey("Short Title") == "short title")
    }

    @Test("a query matches when each word but the last is a word of the movie and the last starts one")
    func matching() {
        let indexed = SearchText.Indexed(title: "Finding Dory", cast: ["Ellen DeGeneres"])
        #expect(SearchText.matches(["finding", "dor"], allWords: indexed.allWords))
        #expect(SearchText.matches(["ellen"], allWords: indexed.allWords))
        #expect(!SearchText.matches(["find", "dory"], allWords: indexed.allWords), "only the last word is a prefix")
        #expect(!SearchText.matches(["dory", "x"], allWords: indexed.allWords))
        #expect(SearchText.relevance(["dory", "ellen"], titleWords: indexed.titleWords) == 1)
    }

    @Test("initials written with dots are one word, typed with the dots or without", arguments: [
        ("E.T. the Extra-Terrestrial", ["et", "the", "extra", "terrestrial"]),
        ("L.A. Confidential", ["la", "confidential"]),
        ("e.t", ["et"]), ("U.S.A.", ["usa"]), ("A.I. Artificial Intelligence", ["ai", "artificial", "intelligence"]),
        ("Mr. T", ["mr", "t"]), ("E. T.", ["e", "t"]), ("2.5 Dollars", ["2", "5", "dollars"]), ("Titan A.E.", ["titan", "ae"]),
    ])
    func initials(text: String, words: [String]) {
        #expect(SearchText.words(text) == words)
    }

    @Test("a title written with its article last starts with it; other commas change nothing", arguments: [
        ("Jungle Book, The", ["the", "jungle", "book"]), ("Mundo, El", ["el", "mundo"]), ("Grande Illusion, La", ["la", "grande", "illusion"]),
        ("Star Is Born, A", ["a", "star", "is", "born"]), ("Murder, She Wrote", ["murder", "she", "wrote"]),
        ("Love, Actually", ["love", "actually"]), ("The Good, the Bad and the Ugly", ["the", "good", "the", "bad", "and", "the", "ugly"]),
        ("Say Anything, The Movie", ["say", "anything", "the", "movie"]), ("The", ["the"]),
    ])
    func articleLast(title: String, words: [String]) {
        #expect(SearchText.titleWords(title) == words)
    }

    @Test("a relevance: the whole title highest, then a title that begins with the words as whole words, then with the last a prefix, then how many it holds")
    func relevanceLevels() {
        let words = ["star", "wars"]
        #expect(SearchText.relevance(words, titleWords: " star wars ") == 5)
        #expect(SearchText.relevance(words, titleWords: " star wars episode ii ") == 4)
        #expect(SearchText.relevance(words, titleWords: " star warsaw ") == 3)
        #expect(SearchText.relevance(words, titleWords: " rogue one a star wars story ") == 2)
        #expect(SearchText.relevance(words, titleWords: " wars star ") == 2)
        #expect(SearchText.relevance(words, titleWords: " star trek ") == 1)
        #expect(SearchText.highestRelevance(words) == 5)
    }
}
