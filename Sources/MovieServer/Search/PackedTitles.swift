import MovieContract
/// Every movie's title words (` finding dory `) packed (``PackedStrings``), so that the index can
/// tell which titles begin with a search's words, or are them, without a string per movie.
struct PackedTitles: Sendable {
    let titles: PackedStrings
    /// Each title's first four bytes (fewer for a shorter title, the rest zero): most titles are
    /// told from a search's words by these alone. Read from the titles' buffer, each title was a
    /// miss of the processor's caches, and a one-letter search asks about a third of a million.
    let heads: [UInt32]

    init(titles: PackedStrings) {
        self.titles = titles
        heads = titles.bytes.withUnsafeBufferPointer { bytes in
            (0..<titles.count).map { Self.head(bytes[Int(titles.starts[$0])..<Int(titles.starts[$0 + 1])]) }
        }
    }

    init(count: Int, titleWords: (Int) -> String) {
        self.init(titles: PackedStrings(count: count, string: titleWords))
    }

    /// The low `bytes` bytes set.
    private static func mask(bytes: Int) -> UInt32 {
        bytes >= 4 ? .max : (1 << UInt32(bytes * 8)) - 1
    }

    /// The first four bytes of `bytes`, the first lowest.
    static func head(_ bytes: some Collection<UInt8>) -> UInt32 {
        var head: UInt32 = 0
        for (shift, byte) in zip(stride(from: 0, to: 32, by: 8), bytes) { head |= UInt32(byte) << UInt32(shift) }
        return head
    }

    /// Calls `body` with a function that tells how a title stands to a search's words
    /// (``SearchText/relevance(_:titleWords:)``): 3 when it is `whole`, 2 when it begins with
    /// `whole` (the words as whole words), 1 when it begins with `start` (the last word a prefix),
    /// else 0. `whole` is `start` and a space. The buffers are taken once for every title asked
    /// about: copied out for each, they were retained and released for each, and a one-letter
    /// search asks about a third of a million titles.
    func withBonus<Result>(start: [UInt8], whole: [UInt8], _ body: ((Int) -> Int) -> Result) -> Result {
        let startMask = Self.mask(bytes: min(4, start.count)), startHead = Self.head(start.prefix(4))
        // Words of up to two letters are told by the head alone: the byte after a whole title is
        // zero there, as no title holds a zero byte.
        let byHeadAlone = whole.count <= 3
        let wholeMask = Self.mask(bytes: min(4, whole.count)), exactMask = Self.mask(bytes: min(4, whole.count + 1))
        let wholeHead = Self.head(whole.prefix(4))
        return heads.withUnsafeBufferPointer { heads in titles.bytes.withUnsafeBufferPointer { bytes in
            titles.starts.withUnsafeBufferPointer { starts in
                start.withUnsafeBufferPointer { start in
                    whole.withUnsafeBufferPointer { whole in
                        body { movie in
                            let head = heads[movie]
                            guard head & startMask == startHead else { return 0 }
                            guard byHeadAlone else { return Self.bonus(of: movie, bytes: bytes, starts: starts, start: start, whole: whole) }
                            guard head & wholeMask == wholeHead else { return 1 }
                            return head & exactMask == wholeHead ? 3 : 2
                        }
                    }
                }
            }
        } }
    }

    private static func bonus(
        of movie: Int, bytes: UnsafeBufferPointer<UInt8>, starts: UnsafeBufferPointer<Int32>, start: UnsafeBufferPointer<UInt8>, whole: UnsafeBufferPointer<UInt8>
    ) -> Int {
        let from = Int(starts[movie]), end = Int(starts[movie + 1])
        guard end - from >= start.count else { return 0 }
        for offset in 0..<start.count where bytes[from + offset] != start[offset] { return 0 }
        guard end - from >= whole.count, bytes[from + start.count] == whole[start.count] else { return 1 }
        return end - from == whole.count ? 3 : 2
    }
}
