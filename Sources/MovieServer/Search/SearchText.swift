import Foundation

/// How the catalogue's text is searched, the same way on every backend: text is folded (lowercase,
/// without diacritics, so "Pokémon" is "pokemon") and cut into words, each a run of letters and
/// digits; everything else (spaces, punctuation, quotes, `*`, `-`, `:`) only separates words, so
/// no character of a query is ever an operator to an engine.
enum SearchText {
    /// `text` lowercased, without diacritics or width variants.
    static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).lowercased()
    }

    /// The folded words of `text`, in order, repeats kept.
    static func words(_ text: String) -> [String] {
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
    static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber:
            true
        default:
            false
        }
    }

    /// What a movie is found by, as stored beside it: its title's words and all its words (title
    /// and cast), each list space-separated with a space at both ends (` finding dory `), so that
    /// "the word w" is the text ` w ` and "a word starting with w" is ` w`; and its title folded
    /// whole, the key of the `title` order.
    struct Indexed: Sendable, Hashable {
        let titleWords: String
        let allWords: String
        let titleKey: String

        init(_ movie: CatalogMovie) {
            let title = SearchText.words(movie.name)
            let cast = movie.cast.flatMap { SearchText.words($0.name) }
            titleWords = " " + title.joined(separator: " ") + " "
            allWords = " " + (title + cast).joined(separator: " ") + " "
            titleKey = SearchText.folded(movie.name)
        }
    }
}
