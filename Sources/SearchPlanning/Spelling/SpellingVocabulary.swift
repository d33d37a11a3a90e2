/// The words a catalogue's movies hold and how a search of them fares: what ``DidYouMean``
/// asks of a backend (the server's in-memory index, the client's store).
package protocol SpellingVocabulary {
    associatedtype Failure: Error

    /// Whether some movie holds `word` (with `asPrefix`, a word that starts with it).
    func isKnown(_ word: String, asPrefix: Bool) throws(Failure) -> Bool

    /// Whether some movie's title holds `word`.
    func isTitleWord(_ word: String) throws(Failure) -> Bool

    /// The best candidates for a typed word, as ``SpellingCandidates`` keeps them over every word.
    func candidates(for word: String) throws(Failure) -> [SpellingCandidate]

    /// How many movies a search of `words` (each but the last a whole word, the last a prefix)
    /// of `year` finds.
    func count(_ words: [String], year: Int?) throws(Failure) -> Int
}
