import MovieContract
import SearchPlanning

/// Search words (``SearchText/words(_:)``) written as SQLite FTS5 queries. A word holds letters
/// and digits only and is quoted, so nothing in it is FTS5 syntax.
public enum FTS5Query {
    /// Every word required, each a quoted string, the last a prefix: `"finding" AND "dor" *`.
    public static func allWords(_ words: [String]) -> String {
        words.indices.map { term(words, $0) }.joined(separator: " AND ")
    }

    /// The word at `index`: quoted, the last one a prefix.
    static func term(_ words: [String], _ index: Int) -> String {
        "\"\(words[index])\"" + (index == words.count - 1 ? " *" : "")
    }
}

extension SearchTiers {
    /// An FTS5 query for the movies with the word at `index` in `titleColumn`.
    func fts5Query(wordInTitle index: Int, titleColumn: String) -> String {
        "{\(titleColumn)} : \(FTS5Query.term(words, index))"
    }

    /// An FTS5 query for the movies with every word (in any column) and exactly `relevance` of
    /// them in `titleColumn`; when no title holds more than `relevance` of the words
    /// (`wordsInSomeTitle`), "at least" is "exactly", and the costly exclusion is left out.
    func fts5Query(relevance: Int, wordsInSomeTitle: Int, titleColumn: String) -> String {
        let all = FTS5Query.allWords(words)
        func inTitle(atLeast count: Int) -> String {
            Self.choices(of: count, from: words.count).map { chosen in
                "{\(titleColumn)} : (" + chosen.map { FTS5Query.term(words, $0) }.joined(separator: " AND ") + ")"
            }.joined(separator: " OR ")
        }
        if relevance == words.count { return inTitle(atLeast: relevance) }
        let atLeast = relevance == 0 ? "(\(all))" : "(\(all)) AND (\(inTitle(atLeast: relevance)))"
        return relevance >= wordsInSomeTitle ? atLeast : "\(atLeast) NOT (\(inTitle(atLeast: relevance + 1)))"
    }
}
