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

    /// The folded words of `text`, in order, repeats kept.
    public static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in folded(text).unicodeScalars {
            if isWordCharacter(scalar) {
                current.append(scalar)
            } else if !current.isEmpty {
                words.append(String(current))
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { words.append(String(current)) }
        return words
    }

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
            let titleWords = SearchText.words(title)
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

    /// How many of `words` are in the title words (` finding dory `), the last as a prefix: a movie's relevance.
    public static func relevance(_ words: [String], titleWords: String) -> Int {
        words.indices.filter { titleWords.contains(needle(words, $0)) }.count
    }

    /// ` w ` for a whole word, ` w` for the last, which may be the start of one.
    public static func needle(_ words: [String], _ index: Int) -> String {
        index == words.count - 1 ? " " + words[index] : " " + words[index] + " "
    }
}
