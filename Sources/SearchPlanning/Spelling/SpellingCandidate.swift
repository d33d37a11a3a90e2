/// A word of the catalogue that a mistyped word may have meant: how many edits away it is, and how
/// many movies hold it. Nearer comes first, then the word more movies hold, then the word's order.
package struct SpellingCandidate: Sendable, Hashable, Comparable {
    package let word: String
    package let edits: Int
    package let movies: Int

    package init(word: String, edits: Int, movies: Int) {
        self.word = word
        self.edits = edits
        self.movies = movies
    }

    package static func < (a: SpellingCandidate, b: SpellingCandidate) -> Bool {
        if a.edits != b.edits { return a.edits < b.edits }
        if a.movies != b.movies { return a.movies > b.movies }
        return a.word.unicodeScalars.lexicographicallyPrecedes(b.word.unicodeScalars)
    }
}

/// The best few ``SpellingCandidate``s for one typed word, kept while a vocabulary is scanned.
package struct SpellingCandidates: Sendable {
    /// The typed word's scalars.
    package let typed: [Unicode.Scalar]
    package let mask: LetterMask
    /// The most edits a candidate may be away (``Spelling/allowedEdits(_:)``).
    package let edits: Int
    private let keep: Int
    package private(set) var best: [SpellingCandidate] = []

    /// The typed word's bytes when it is ASCII, measured against ASCII words without making strings.
    private let typedASCII: [UInt8]?

    package init(for word: String, keep: Int = Spelling.candidatesPerWord) {
        typed = Array(word.unicodeScalars)
        typedASCII = word.utf8.allSatisfy { $0 < 0x80 } ? Array(word.utf8) : nil
        mask = LetterMask(typed)
        edits = Spelling.allowedEdits(word)
        self.keep = keep
    }

    /// Whether a word of `length` scalars and letters `mask` may be within the edits allowed.
    package func mayMatch(length: Int, mask other: LetterMask) -> Bool {
        abs(length - typed.count) <= edits && mask.mayBeWithin(edits, of: other)
    }

    /// Counts `word` (held by `movies` movies) in, if it is within the edits allowed and among the best.
    package mutating func consider(_ word: String, movies: Int) {
        let scalars = Array(word.unicodeScalars)
        guard mayMatch(length: scalars.count, mask: LetterMask(scalars)), scalars != typed,
              let distance = EditDistance.distance(typed, scalars, limit: edits) else { return }
        admit(SpellingCandidate(word: word, edits: distance, movies: movies))
    }

    /// ``consider(_:movies:)`` for a word given as its UTF-8 bytes, already through
    /// ``mayMatch(length:mask:)``: an ASCII word is measured on its bytes, and made a string only
    /// when it is among the best.
    package mutating func consider(utf8 bytes: UnsafeRawBufferPointer, movies: Int) {
        guard let typedASCII, bytes.allSatisfy({ $0 < 0x80 }) else {
            consider(String(decoding: bytes, as: UTF8.self), movies: movies)
            return
        }
        let word = bytes.bindMemory(to: UInt8.self)
        guard !word.elementsEqual(typedASCII),
              let distance = typedASCII.withUnsafeBufferPointer({ EditDistance.distance($0, word, limit: edits) }) else { return }
        if best.count == keep, let worst = best.last, distance > worst.edits || (distance == worst.edits && movies < worst.movies) { return }
        admit(SpellingCandidate(word: String(decoding: word, as: UTF8.self), edits: distance, movies: movies))
    }

    private mutating func admit(_ candidate: SpellingCandidate) {
        if best.count == keep, let worst = best.last, !(candidate < worst) { return }
        best.insert(candidate, at: best.firstIndex { candidate < $0 } ?? best.endIndex)
        if best.count > keep { best.removeLast() }
    }
}
