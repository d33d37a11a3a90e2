/// An inverted index of an in-memory catalogue: each word, the movies (by index, ascending) that
/// hold it, and the words in Unicode scalar order, for the words a prefix starts.
struct WordPostings: Sendable {
    private let postings: [String: [Int32]]
    private let sortedWords: [String]

    /// `words(i)` is the words of movie `i`, repeats allowed.
    init(count: Int, words: (Int) -> [Substring]) {
        var postings: [String: [Int32]] = [:]
        for movie in 0..<count {
            var seen: Set<Substring> = []
            for word in words(movie) where seen.insert(word).inserted {
                postings[String(word), default: []].append(Int32(movie))
            }
        }
        self.postings = postings
        sortedWords = postings.keys.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
    }

    /// The movies that hold `word` whole (one list), or any word starting with it (a list per word).
    func lists(for word: String, asPrefix: Bool) -> [[Int32]] {
        guard asPrefix else { return postings[word].map { [$0] } ?? [] }
        var low = 0, high = sortedWords.count
        while low < high {
            let middle = (low + high) / 2
            if sortedWords[middle].unicodeScalars.lexicographicallyPrecedes(word.unicodeScalars) { low = middle + 1 } else { high = middle }
        }
        var lists: [[Int32]] = []
        var position = low
        while position < sortedWords.count, sortedWords[position].unicodeScalars.starts(with: word.unicodeScalars) {
            if let list = postings[sortedWords[position]] { lists.append(list) }
            position += 1
        }
        return lists
    }
}
