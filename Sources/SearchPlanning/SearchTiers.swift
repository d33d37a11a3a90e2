import Foundation
import MovieContract

/// A search of one to three words, answered one relevance at a time: the whole title, the titles
/// that begin with the words (as whole words, then the last a prefix), the movies with all the
/// words in their title, then those with one fewer, down to those that match by their cast alone.
///
/// Sorting every match by relevance before the first page costs what the words match: a third of
/// a million-movie catalogue for "the". Within one relevance the order is the sort's alone, which
/// an index holds, so a relevance with many movies is read by walking that index in order until
/// the page is full (it meets one quickly), and one with few by sorting them (few to sort).
/// ``reading(count:)`` chooses from how many movies the relevance holds, counted by the text index
/// up to ``sortingLimit``.
///
/// A backend first counts every match (up to the limit): none is an empty page, and fewer than the
/// limit are sorted at once, relevance and all. Only broad words are read a relevance at a time,
/// and only the relevances that can hold a movie: a word that is in no title cannot add to one
/// (``relevances(wordsInSomeTitle:)``), so "rosa silva", two names, reads one relevance.
package struct SearchTiers: Sendable {
    /// The most words for which the relevances are read one at a time. A relevance of `r` of `n`
    /// words is an OR of every choice of `r` words in the title, which grows quickly; and more
    /// words, all required, match few movies, which sorting serves well.
    static let mostWords = 3

    /// The search's folded words (``SearchText/words(_:)``).
    package let words: [String]
    /// How many movies the page holds.
    package let limit: Int
    /// The relevance of the position the page continues after, if any.
    package let positionRelevance: Int?
    package let strategy: TierReading
    /// How many movies the search looks among, which sets ``sortingLimit``.
    package let catalogueSize: Int

    package init?(words: [String], limit: Int, positionRelevance: Int? = nil, strategy: TierReading, catalogueSize: Int = 1_000_000) {
        guard (1...Self.mostWords).contains(words.count) else { return nil }
        self.words = words
        self.limit = limit
        self.positionRelevance = positionRelevance
        self.strategy = strategy
        self.catalogueSize = catalogueSize
    }

    /// The relevances a page can hold, highest first: from the position's (or the highest a
    /// movie can have: a whole title when some title holds every word, `wordsInSomeTitle` else)
    /// down to none.
    package func relevances(wordsInSomeTitle: Int) -> [Int] {
        let highest = wordsInSomeTitle == words.count ? SearchText.highestRelevance(words) : wordsInSomeTitle
        return Array((0...min(positionRelevance ?? highest, highest)).reversed())
    }

    /// Whether movies of `relevance` are titles that begin with the words (or are them), which an
    /// index of the title words finds, rather than the text index.
    package func isTitleStart(_ relevance: Int) -> Bool {
        relevance > words.count
    }

    /// The conditions on the title words (` star wars `) of the titles of a title-start
    /// `relevance`, each a comparison an index of the title words reads as a range: the whole
    /// title; the titles that begin with the words as whole words; those that begin with them,
    /// the last a prefix only.
    package func titleWordsConditions(_ relevance: Int) -> [TitleWordsCondition] {
        let start = SearchText.titleStart(words), whole = SearchText.wholeTitle(words)
        switch relevance - words.count {
        case 3: return [.equal(whole)]
        case 2: return [.atLeast(whole), .below(Self.after(whole)), .notEqual(whole)]
        // After `start`, a title's words go on with a space (a whole word: the relevance above) or
        // with a letter or digit, all of which sort after `whole`'s end: one range, past the other.
        default: return [.atLeast(Self.after(whole)), .below(Self.after(start))]
        }
    }

    /// The least text after every text that begins with `prefix`: its last character one higher.
    static func after(_ prefix: String) -> String {
        var scalars = Array(prefix.unicodeScalars)
        if let last = scalars.popLast(), let next = Unicode.Scalar(last.value + 1) {
            scalars.append(next)
            return String(String.UnicodeScalarView(scalars))
        }
        return prefix + "\u{10FFFF}"
    }

    /// The count from which walking the index is cheaper than sorting: about √(page × catalogue).
    /// Sorting costs each match; walking costs the movies passed over, about page × catalogue ÷
    /// matches. The two meet there, and stay within a few times of each other for a catalogue
    /// ten times larger or smaller than the one given.
    package var sortingLimit: Int { Self.sortingLimit(limit: limit, catalogueSize: catalogueSize) }

    /// ``sortingLimit`` for a page of `limit` movies among `catalogueSize` (a million unless said).
    package static func sortingLimit(limit: Int, catalogueSize: Int = 1_000_000) -> Int {
        max(limit + 1, Int((Double(limit + 1) * Double(max(catalogueSize, 1))).squareRoot()))
    }

    /// How to read a relevance that holds `count` movies (counted up to ``sortingLimit``).
    package func reading(count: Int) -> TierReading.Choice {
        switch strategy {
        case .bySize, .bySizeWalkingFirst: count < sortingLimit ? .sortingMatches : .walkingIndex
        case .sortingMatches: .sortingMatches
        case .walkingIndex: .walkingIndex
        }
    }

    /// Every choice of `count` of the indices `0..<total`, each in increasing order.
    package static func choices(of count: Int, from total: Int) -> [[Int]] {
        guard count > 0 else { return [[]] }
        guard count <= total else { return [] }
        return (0...(total - count)).flatMap { first in
            choices(of: count - 1, from: total - first - 1).map { [first] + $0.map { $0 + first + 1 } }
        }
    }
}

/// How a backend reads the movies of one relevance of a search (``SearchTiers``): by their count
/// (the default), or always one way, which the tests use to check both ways give the same pages.
package enum TierReading: Sendable, Hashable {
    case bySize
    case sortingMatches
    case walkingIndex
    /// As ``bySize``, with PostgreSQL's first walk of a relevance over this many movies (its
    /// default is thousands, more than a test's catalogue holds).
    case bySizeWalkingFirst(Int)

    package enum Choice: Sendable {
        case sortingMatches
        case walkingIndex
    }
}

/// A comparison of a title's words (``SearchTiers/titleWordsConditions(_:)``), written in SQL by
/// each database.
package enum TitleWordsCondition: Sendable, Hashable {
    case equal(String)
    case notEqual(String)
    case atLeast(String)
    case below(String)

    /// The condition as SQL on `column`, with `bind` giving each value's placeholder in order.
    package func sql(_ column: String, _ bind: (String) -> String) -> String {
        switch self {
        case let .equal(text): "\(column) = \(bind(text))"
        case let .notEqual(text): "\(column) <> \(bind(text))"
        case let .atLeast(text): "\(column) >= \(bind(text))"
        case let .below(text): "\(column) < \(bind(text))"
        }
    }
}
