/// An inverted index of an in-memory catalogue: its words in Unicode scalar order, and for each,
/// the movies (by index, ascending) that hold it. The lists are one array, each word's a range of
/// it: a dictionary of arrays spent an allocation and a hashed key on each of hundreds of
/// thousands of words.
struct WordPostings: Sendable {
    let words: PackedStrings
    /// Where each word's movies start in `movies`; one more, the end.
    let starts: [Int32]
    let movies: [Int32]

    /// Postings a snapshot holds, for `count` movies; fails unless every bound and movie fits.
    init(words: PackedStrings, starts: [Int32], movies: [Int32], count: Int) throws(SearchIndexSnapshot.Unreadable) {
        guard starts.count == words.count + 1, starts.first == 0, starts.last.map({ Int($0) == movies.count }) == true,
              zip(starts, starts.dropFirst()).allSatisfy({ $0 <= $1 }),
              movies.allSatisfy({ $0 >= 0 && Int($0) < count }) else {
            throw SearchIndexSnapshot.Unreadable(reason: "a word's movies do not fit")
        }
        (self.words, self.starts, self.movies) = (words, starts, movies)
    }

    /// `words(i)` is the words of movie `i`, repeats allowed.
    /// `wordCount`, when known, is how many words there are in all (repeats included): the
    /// occurrences are kept in an array made that size once, where growing it by doubling held
    /// the old and the new at once (tens of megabytes for a million movies).
    init(count: Int, wordCount: Int? = nil, words: (Int) -> [Substring]) {
        var numbering = WordNumbering()
        var occurrences: [Int32] = []
        occurrences.reserveCapacity(wordCount ?? 0)
        var movieEnds: [Int] = []
        movieEnds.reserveCapacity(count)
        var lastMovie: [Int32] = []
        for movie in 0..<count {
            for word in words(movie) {
                let number = numbering.number(of: word)
                if Int(number) == lastMovie.count { lastMovie.append(-1) }
                guard lastMovie[Int(number)] != Int32(movie) else { continue }
                lastMovie[Int(number)] = Int32(movie)
                occurrences.append(number)
            }
            movieEnds.append(occurrences.count)
        }
        lastMovie = []
        let vocabulary = numbering.vocabulary
        numbering = WordNumbering()
        let sorted = (0..<vocabulary.count).sorted { vocabulary.compare($0, $1) < 0 }
        var position = [Int32](repeating: 0, count: vocabulary.count)
        var lengths = [Int32](repeating: 0, count: vocabulary.count)
        for number in occurrences { lengths[Int(number)] += 1 }
        var starts: [Int32] = [0]
        starts.reserveCapacity(vocabulary.count + 1)
        for number in sorted {
            position[number] = starts[starts.count - 1]
            starts.append(starts[starts.count - 1] + lengths[number])
        }
        lengths = []
        var movies = [Int32](repeating: 0, count: occurrences.count)
        var from = 0
        for (movie, end) in movieEnds.enumerated() {
            for number in occurrences[from..<end] {
                movies[Int(position[Int(number)])] = Int32(movie)
                position[Int(number)] += 1
            }
            from = end
        }
        var packed = PackedStrings()
        for number in sorted { vocabulary.withBytes(number) { packed.append($0) } }
        self.words = packed
        self.starts = starts
        self.movies = movies
    }

    /// The movies that hold `word` whole (one list), or any word starting with it (a list per word).
    func lists(for word: String, asPrefix: Bool) -> [ArraySlice<Int32>] {
        var word = word
        return word.withUTF8 { wanted in
            let low = firstWord(notBefore: wanted)
            guard asPrefix else {
                return low < words.count && words.compare(low, to: wanted) == 0 ? [list(low)] : []
            }
            var lists: [ArraySlice<Int32>] = []
            var position = low
            while position < words.count, words.hasPrefix(position, wanted) {
                lists.append(list(position))
                position += 1
            }
            return lists
        }
    }

    /// The first word, in the vocabulary's order, that does not sort before `wanted` (the count
    /// when every word does): where `wanted`, and the words it starts, would be.
    func firstWord(notBefore wanted: UnsafeBufferPointer<UInt8>) -> Int {
        var low = 0, high = words.count
        while low < high {
            let middle = (low + high) / 2
            if words.compare(middle, to: wanted) < 0 { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private func list(_ word: Int) -> ArraySlice<Int32> {
        movies[Int(starts[word])..<Int(starts[word + 1])]
    }
}
