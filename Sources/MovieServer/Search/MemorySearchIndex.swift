import Movies
/// The in-memory catalogue's search: each movie's words, an inverted index from word to movies,
/// and the words in order for prefixes. Made once per catalogue.
struct MemorySearchIndex: Sendable {
    private let movies: [CatalogMovie]
    private let indexed: [SearchText.Indexed]
    private let postings: [String: [Int]]
    /// Every word, in Unicode scalar order, for the range of words a prefix starts.
    private let sortedWords: [String]

    init(_ movies: [CatalogMovie]) {
        self.movies = movies
        indexed = movies.map(SearchText.Indexed.init)
        var postings: [String: [Int]] = [:]
        for (index, entry) in indexed.enumerated() {
            for word in Set(entry.allWords.split(separator: " ").map(String.init)) {
                postings[word, default: []].append(index)
            }
        }
        self.postings = postings
        sortedWords = postings.keys.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
    }

    /// The first `search.limit + 1` hits after `search.after`, in the search's order.
    func search(_ search: MovieSearch) -> [SearchHit] {
        guard !search.matchesNothing else { return [] }
        var found: [(hit: SearchHit, position: SearchPosition)] = []
        for index in candidates(for: search.words) {
            let movie = movies[index], entry = indexed[index]
            guard search.year.map({ $0 == movie.year }) ?? true, search.matches(allWords: entry.allWords) else { continue }
            let position = search.position(of: movie, indexed: entry)
            if let after = search.after, !search.precedes(after, position) { continue }
            found.append((SearchHit(movie: movie, relevance: position.relevance), position))
        }
        found.sort { search.precedes($0.position, $1.position) }
        return found.prefix(search.limit + 1).map(\.hit)
    }

    /// The movies that can match `words`: those holding the rarest of them, all movies without words.
    private func candidates(for words: [String]) -> [Int] {
        guard let last = words.last else { return Array(movies.indices) }
        var sets = words.dropLast().map { postings[$0] ?? [] }
        sets.append(startingWith(last))
        return sets.min { $0.count < $1.count } ?? []
    }

    private func startingWith(_ prefix: String) -> [Int] {
        var low = 0, high = sortedWords.count
        while low < high {
            let middle = (low + high) / 2
            if sortedWords[middle].unicodeScalars.lexicographicallyPrecedes(prefix.unicodeScalars) { low = middle + 1 } else { high = middle }
        }
        var indexes: [Int] = []
        var position = low
        while position < sortedWords.count, sortedWords[position].hasPrefix(prefix) {
            indexes += postings[sortedWords[position]] ?? []
            position += 1
        }
        return Array(Set(indexes))
    }
}
