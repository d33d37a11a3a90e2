import Foundation

/// How the catalogue's text is searched, the same way on every backend: text is folded (lowercase,
/// without diacritics, so "Pokémon" is "pokemon") and cut into words, each a run of letters and
/// digits; everything else (spaces, punctuation, quotes, `*`, `-`, `:`) only separates words, so
/// no character of a query is ever an operator to an engine.
public enum SearchText {
    /// `text` lowercased, without diacritics or width variants.
    public static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).lowercased()
    }

    /// The folded words of `text`, in order, repeats kept. Initials written with dots are one
    /// word: `E.T.` and `L.A.` are `et` and `la`, as a person types them either way.
    public static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        var separator = String.UnicodeScalarView()
        // Whether the last word is initials so far (`e`, `e.t`): one letter, or letters joined by single dots.
        var initials = false
        func endWord() {
            guard !current.isEmpty else { return }
            let single = current.count == 1 && current.first!.properties.isAlphabetic
            if single, initials, String(separator) == ".", let last = words.popLast() {
                words.append(last + String(current))
            } else {
                words.append(String(current))
                initials = single
            }
            if !single { initials = false }
            current = String.UnicodeScalarView()
            separator = String.UnicodeScalarView()
        }
        for scalar in folded(text).unicodeScalars {
            if isWordCharacter(scalar) {
                current.append(scalar)
            } else {
                if !current.isEmpty { endWord() }
                separator.append(scalar)
            }
        }
        endWord()
        return words
    }

    /// The words of a title as a person says it: a title written in the catalogue convention
    /// with its article last (`Jungle Book, The`, `Mundo, El`, `Grande Illusion, La`) starts with it.
    public static func titleWords(_ title: String) -> [String] {
        let words = words(title)
        guard words.count > 1, let article = words.last, articles.contains(article) else { return words }
        let folded = folded(title).trimmingCharacters(in: .whitespaces)
        guard let comma = folded.lastIndex(of: ","),
              SearchText.words(String(folded[folded.index(after: comma)...])) == [article] else { return words }
        return [article] + words.dropLast()
    }

    /// The articles a catalogue writes after a comma at a title's end (English, Spanish, French,
    /// Italian, German, Portuguese): `Jungle Book, The`.
    package static let articles: Set<String> = ["the", "a", "an", "el", "la", "los", "las", "le", "les", "l", "il", "lo", "gli", "der", "die", "das", "os"]

    /// Letters and digits, by general category: what SQLite's `unicode61` tokenizer and
    /// PostgreSQL's parser also keep inside a word.
    public static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber:
            true
        default:
            false
        }
    }

    /// How many code points of a folded title the `title` order compares: titles alike in their
    /// first 100 are ordered by id. A bounded key keeps a page's cursor bounded, whatever the
    /// catalogue holds.
    public static let titleKeyLength = 100

    /// The key of the `title` order: the title folded, cut to ``titleKeyLength`` code points.
    public static func titleKey(_ title: String) -> String {
        let folded = folded(title)
        guard folded.unicodeScalars.count > titleKeyLength else { return folded }
        return String(String.UnicodeScalarView(folded.unicodeScalars.prefix(titleKeyLength)))
    }

    /// What a movie is found by, as stored beside it: its title's words, its cast's and all its
    /// words (title and cast), each list space-separated with a space at both ends
    /// (` finding dory `), so that "the word w" is the text ` w ` and "a word starting with w" is
    /// ` w`; and its ``titleKey(_:)``, the key of the `title` order.
    public struct Indexed: Sendable, Hashable {
        public let titleWords: String
        public let castWords: String
        public let allWords: String
        public let titleKey: String

        public init(title: String, cast: [String]) {
            let titleWords = SearchText.titleWords(title)
            let castWords = cast.flatMap { SearchText.words($0) }
            self.titleWords = " " + titleWords.joined(separator: " ") + " "
            self.castWords = " " + castWords.joined(separator: " ") + " "
            allWords = " " + (titleWords + castWords).joined(separator: " ") + " "
            titleKey = SearchText.titleKey(title)
        }
    }

    /// The words of a query, and whether a movie indexed as `allWords` matches them: each word
    /// but the last one of its words, the last the start of one.
    public static func matches(_ words: [String], allWords: String) -> Bool {
        words.enumerated().allSatisfy { index, word in allWords.contains(needle(words, index)) }
    }

    /// A movie's relevance to `words`: how many of them are in its title words (` finding dory `),
    /// the last as a prefix; one more when the title begins with them, in order (the last as a
    /// prefix); one more when it begins with them as whole words; one more again when it is them
    /// and nothing else. So `star wars` puts "Star Wars" (5) before "Star Wars: Episode II" (4)
    /// before "Star Warsaw" (3) before "Rogue One: A Star Wars Story" (2), whatever the sort says.
    public static func relevance(_ words: [String], titleWords: String) -> Int {
        let inTitle = words.indices.filter { titleWords.contains(needle(words, $0)) }.count
        guard inTitle == words.count, !words.isEmpty else { return inTitle }
        let whole = wholeTitle(words)
        return inTitle + (titleWords.hasPrefix(titleStart(words)) ? 1 : 0) + (titleWords.hasPrefix(whole) ? 1 : 0) + (titleWords == whole ? 1 : 0)
    }

    /// The highest relevance of a search of `words`: its whole title.
    public static func highestRelevance(_ words: [String]) -> Int {
        words.isEmpty ? 0 : words.count + 3
    }

    /// ` star wa`: the title words of a title that begins with `words` start with this.
    public static func titleStart(_ words: [String]) -> String {
        " " + words.joined(separator: " ")
    }

    /// ` star wars `: the title words of a title that is `words`, and the start of those of a title
    /// that begins with them as whole words.
    public static func wholeTitle(_ words: [String]) -> String {
        " " + words.joined(separator: " ") + " "
    }

    /// ` w ` for a whole word, ` w` for the last, which may be the start of one.
    public static func needle(_ words: [String], _ index: Int) -> String {
        index == words.count - 1 ? " " + words[index] : " " + words[index] + " "
    }
}
