import SearchPlanning

extension WordPostings {
    /// Whether some movie holds `word` (with `asPrefix`, a word that starts with it).
    func contains(_ word: String, asPrefix: Bool) -> Bool {
        var word = word
        return word.withUTF8 { wanted in
            let low = firstWord(notBefore: wanted)
            guard low < words.count else { return false }
            return asPrefix ? words.hasPrefix(low, wanted) : words.compare(low, to: wanted) == 0
        }
    }

    /// The best candidates for `word` among these words (``SpellingCandidates``): the words whose
    /// length and letters (`spelling`) may be near enough are the only ones measured.
    func candidates(for word: String, spelling: SpellingIndex) -> [SpellingCandidate] {
        var found = SpellingCandidates(for: word)
        let typedLength = found.typed.count, edits = found.edits, mask = found.mask
        words.bytes.withUnsafeBytes { buffer in
            for index in 0..<words.count where abs(Int(spelling.lengths[index]) - typedLength) <= edits
                && mask.mayBeWithin(edits, of: LetterMask(bits: spelling.masks[index])) {
                let bytes = UnsafeRawBufferPointer(rebasing: buffer[Int(words.starts[index])..<Int(words.starts[index + 1])])
                found.consider(utf8: bytes, movies: Int(starts[index + 1] - starts[index]))
            }
        }
        return found.best
    }
}
