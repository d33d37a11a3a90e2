import SearchPlanning

/// Each word of a vocabulary's letters (``LetterMask``) and length in Unicode scalars, so that
/// "did you mean" scans hundreds of thousands of words and computes the edit distance of few.
/// Made with the search index (a few milliseconds for a million movies' words).
struct SpellingIndex: Sendable {
    let masks: [UInt64]
    /// Lengths in scalars, 255 for any longer.
    let lengths: [UInt8]

    init(_ words: PackedStrings) {
        var masks = [UInt64](repeating: 0, count: words.count)
        var lengths = [UInt8](repeating: 0, count: words.count)
        words.bytes.withUnsafeBytes { buffer in
            for word in 0..<words.count {
                let bytes = UnsafeRawBufferPointer(rebasing: buffer[Int(words.starts[word])..<Int(words.starts[word + 1])])
                masks[word] = LetterMask(utf8: bytes).bits
                lengths[word] = UInt8(min(255, bytes.lazy.filter { $0 & 0xC0 != 0x80 }.count))
            }
        }
        (self.masks, self.lengths) = (masks, lengths)
    }
}
