import Foundation
import MovieContract

/// What a search that found nothing probably meant, by one rule on every backend and offline.
///
/// A four-digit number from 1888 to next year is taken as the year (`doctor strange 2016` →
/// `doctor strange`, 2016) unless a title holds it and the query as typed finds movies
/// (`2012 cusack` is the film "2012"; `amour 2012` is Amour of 2012). Each other word that no movie holds (the last:
/// that no word starts with) is replaced by a word of the catalogue at most ``Spelling/allowedEdits(_:)``
/// away (``EditDistance``), nearer first, then the word more movies hold. The corrected queries
/// are run in that order, and the first that finds movies is the suggestion: the nearest word
/// alone may not go with the others (`batman vs superman` is not `batman us superman`). Nothing
/// is suggested for a query whose words are all known and that has no year in it, nor for a
/// number no movie holds: `2016` is not a typo of `2012`.
package enum DidYouMean {
    /// The suggestion for the folded `words` of a query (``SearchText/words(_:)``) of `year`, or `nil`.
    package static func suggestion<Vocabulary: SpellingVocabulary>(
        for words: [String], year: Int?, latestYear: Int, in vocabulary: Vocabulary
    ) throws(Vocabulary.Failure) -> SearchSuggestion? {
        var words = words, year = year, tookYear = false
        if year == nil, words.count > 1 {
            for index in words.indices.reversed() {
                guard let named = Spelling.year(in: words[index], latestYear: latestYear) else { continue }
                if try vocabulary.isTitleWord(words[index]), try vocabulary.count(words, year: nil) > 0 { break }
                (year, tookYear) = (named, true)
                words.remove(at: index)
                break
            }
        }
        guard !words.isEmpty else { return nil }
        var unknown: [(index: Int, candidates: [SpellingCandidate])] = []
        for (index, word) in words.enumerated() where !(try vocabulary.isKnown(word, asPrefix: index == words.count - 1)) {
            guard !Spelling.isNumber(word) else { return nil }
            let candidates = try vocabulary.candidates(for: word)
            guard !candidates.isEmpty else { return nil }
            unknown.append((index, candidates))
        }
        guard tookYear || !unknown.isEmpty else { return nil }
        for choice in choices(unknown.map(\.candidates)).prefix(Spelling.mostTries) {
            var corrected = words
            for (word, pick) in zip(unknown, choice) { corrected[word.index] = word.candidates[pick].word }
            let found = try vocabulary.count(corrected, year: year)
            if found > 0 { return SearchSuggestion(query: corrected.joined(separator: " "), year: year, movies: found) }
        }
        return nil
    }

    /// The most combinations of candidates ordered before the first ``Spelling/mostTries`` are run.
    static let mostCombinations = 256

    /// Every combination of one candidate per word (an index into each list), fewest edits in
    /// all first, then the better candidates; each list cut so that there are at most ``mostCombinations``.
    static func choices(_ lists: [[SpellingCandidate]]) -> [[Int]] {
        guard !lists.isEmpty else { return [[]] }
        let each = max(1, Int(pow(Double(mostCombinations), 1 / Double(lists.count))))
        var combinations: [[Int]] = [[]]
        for list in lists {
            combinations = combinations.flatMap { chosen in (0..<min(each, list.count)).map { chosen + [$0] } }
        }
        func cost(_ choice: [Int]) -> (edits: Int, ranks: Int) {
            (zip(lists, choice).reduce(0) { $0 + $1.0[$1.1].edits }, choice.reduce(0, +))
        }
        return combinations.map { ($0, cost($0)) }.sorted { a, b in
            a.1 != b.1 ? a.1 < b.1 : a.0.lexicographicallyPrecedes(b.0)
        }.map(\.0)
    }
}
