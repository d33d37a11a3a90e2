import Foundation
import Movies

/// A search of one to three words, answered one relevance at a time: the movies with all the
/// words in their title, then those with one fewer, down to those that match by their cast alone.
///
/// Sorting every match by relevance before the first page costs what the words match: a third of
/// a million-movie catalogue for "the". Within one relevance the order is the sort's alone, which
/// an index holds, so a relevance with many movies is read by walking that index in order until
/// the page is full (it meets one quickly), and one with few by sorting them (few to sort).
/// ``reading(count:)`` chooses from how many movies the relevance holds, counted by the text index
/// up to ``sortingLimit``.
struct SearchTiers {
    /// The most words for which the relevances are read one at a time. A relevance of `r` of `n`
    /// words is an OR of every choice of `r` words in the title, which grows quickly; and more
    /// words, all required, match few movies, which sorting serves well.
    static let mostWords = 3

    let search: MovieSearch
    let strategy: TierReading

    init?(_ search: MovieSearch, strategy: TierReading) {
        guard (1...Self.mostWords).contains(search.words.count) else { return nil }
        self.search = search
        self.strategy = strategy
    }

    /// The relevances a page can hold, highest first: from the position's down to none.
    var relevances: [Int] {
        Array((0...(search.after?.relevance ?? search.words.count)).reversed())
    }

    /// The position to continue after among the movies of `relevance`: the search's, if it is there.
    func position(in relevance: Int) -> SearchPosition? {
        search.after?.relevance == relevance ? search.after : nil
    }

    /// The count from which walking the index is cheaper than sorting: about √(page × a million).
    /// Sorting costs each match; walking costs the movies passed over, about page × catalogue ÷
    /// matches. The two meet there for a catalogue of a million, and stay within a few times of
    /// each other for one ten times larger or smaller.
    var sortingLimit: Int {
        Int((Double(search.limit + 1) * 1_000_000).squareRoot())
    }

    /// How to read a relevance that holds `count` movies (counted up to ``sortingLimit``).
    func reading(count: Int) -> TierReading.Choice {
        switch strategy {
        case .bySize: count < sortingLimit ? .sortingMatches : .walkingIndex
        case .sortingMatches: .sortingMatches
        case .walkingIndex: .walkingIndex
        }
    }

    /// An FTS5 query for the movies with every word (in any column) and exactly `relevance` of
    /// them in `titleColumn`. Each word is a quoted string of letters and digits, so nothing in it
    /// is FTS5 syntax.
    func fts5Query(relevance: Int, titleColumn: String) -> String {
        let words = search.words
        let all = SearchText.fts5Query(words)
        func inTitle(atLeast count: Int) -> String {
            Self.choices(of: count, from: words.count).map { chosen in
                "{\(titleColumn)} : (" + chosen.map { term($0) }.joined(separator: " AND ") + ")"
            }.joined(separator: " OR ")
        }
        func term(_ index: Int) -> String {
            "\"\(words[index])\"" + (index == words.count - 1 ? " *" : "")
        }
        if relevance == words.count { return inTitle(atLeast: relevance) }
        let atLeast = relevance == 0 ? "(\(all))" : "(\(all)) AND (\(inTitle(atLeast: relevance)))"
        return "\(atLeast) NOT (\(inTitle(atLeast: relevance + 1)))"
    }

    /// Every choice of `count` of the indices `0..<total`, each in increasing order.
    static func choices(of count: Int, from total: Int) -> [[Int]] {
        guard count > 0 else { return [[]] }
        guard count <= total else { return [] }
        return (0...(total - count)).flatMap { first in
            choices(of: count - 1, from: total - first - 1).map { [first] + $0.map { $0 + first + 1 } }
        }
    }
}

/// How a backend reads the movies of one relevance of a search (``SearchTiers``): by their count
/// (the default), or always one way, which the tests use to check both ways give the same pages.
public enum TierReading: Sendable {
    case bySize
    case sortingMatches
    case walkingIndex

    enum Choice {
        case sortingMatches
        case walkingIndex
    }
}
