import MovieContract
import SearchPlanning

extension MemorySearchIndex: SpellingVocabulary {
    /// What a search of `words` of `year` probably meant (``DidYouMean``), from this index alone.
    func suggestion(for words: [String], year: Int?, latestYear: Int) -> SearchSuggestion? {
        DidYouMean.suggestion(for: words, year: year, latestYear: latestYear, in: self)
    }

    func isKnown(_ word: String, asPrefix: Bool) -> Bool {
        allWords.contains(word, asPrefix: asPrefix)
    }

    func isTitleWord(_ word: String) -> Bool {
        titleWords.contains(word, asPrefix: false)
    }

    func candidates(for word: String) -> [SpellingCandidate] {
        allWords.candidates(for: word, spelling: spelling)
    }

    /// How many movies hold every word (the last as a prefix) of `year`: the movies of the word
    /// held by the fewest, kept while each other word holds them, looked up in its lists (or, for
    /// a prefix of many words, by marking them and reading the lists once).
    func count(_ words: [String], year: Int?) -> Int {
        let groups = words.enumerated().map { allWords.lists(for: $1, asPrefix: $0 == words.count - 1) }
        guard !groups.isEmpty, groups.allSatisfy({ !$0.isEmpty }) else { return 0 }
        func size(_ group: [ArraySlice<Int32>]) -> Int { group.reduce(0) { $0 + $1.count } }
        let ordered = groups.sorted { size($0) < size($1) }
        var movies = distinct(ordered[0])
        if let year = year.map({ Int32(clamping: $0) }) { movies.removeAll { years[Int($0)] != year } }
        for group in ordered.dropFirst() where !movies.isEmpty {
            if movies.count * group.count < size(group) {
                movies.removeAll { movie in !group.contains { $0.containsSorted(movie) } }
            } else {
                var wanted = [Bool](repeating: false, count: count)
                for movie in movies { wanted[Int(movie)] = true }
                var kept: [Int32] = []
                for list in group { for movie in list where wanted[Int(movie)] { kept.append(movie); wanted[Int(movie)] = false } }
                movies = kept
            }
        }
        return movies.count
    }

    /// The movies of a group of lists, each once.
    private func distinct(_ group: [ArraySlice<Int32>]) -> [Int32] {
        guard group.count > 1 else { return Array(group[0]) }
        var seen = [Bool](repeating: false, count: count)
        var movies: [Int32] = []
        for list in group { for movie in list where !seen[Int(movie)] { seen[Int(movie)] = true; movies.append(movie) } }
        return movies
    }
}

extension ArraySlice<Int32> {
    /// Whether this ascending list holds `value`.
    func containsSorted(_ value: Int32) -> Bool {
        var low = startIndex, high = endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < endIndex && self[low] == value
    }
}
