import MovieContract
/// Every movie's title words (` finding dory `) packed (``PackedStrings``), so that the index can
/// tell which titles begin with a search's words, or are them, without a string per movie.
struct PackedTitles: Sendable {
    let titles: PackedStrings

    init(titles: PackedStrings) {
        self.titles = titles
    }

    init(count: Int, titleWords: (Int) -> String) {
        titles = PackedStrings(count: count, string: titleWords)
    }

    /// How a title stands to a search's words (``SearchText/relevance(_:titleWords:)``): 3 when it
    /// is `whole`, 2 when it begins with `whole` (the words as whole words), 1 when it begins with
    /// `start` (the last word a prefix), else 0. `whole` is `start` and a space.
    func bonus(of movie: Int, start: [UInt8], whole: [UInt8]) -> Int {
        let bytes = titles.bytes, starts = titles.starts
        let from = Int(starts[movie]), end = Int(starts[movie + 1])
        guard end - from >= start.count else { return 0 }
        for offset in start.indices where bytes[from + offset] != start[offset] { return 0 }
        guard end - from >= whole.count, bytes[from + start.count] == whole[start.count] else { return 1 }
        return end - from == whole.count ? 3 : 2
    }
}
