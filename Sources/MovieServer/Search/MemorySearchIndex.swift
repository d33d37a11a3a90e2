import Movies

/// The in-memory catalogue's search and listing, with what the database backends have: an order
/// kept per sort (``MovieOrder``) and inverted indexes of all words and title words
/// (``WordPostings``). Made once per catalogue, at start.
///
/// A listing page is a range of its sort's order after the cursor. A search counts, for each
/// movie its words reach, how many of them it holds (all words, and title words: its relevance),
/// then reads a relevance at a time, highest first, as ``SearchTiers`` does on SQLite: a relevance
/// with few movies is sorted by rank, one with many is met by walking the sort's order. No page
/// sorts the catalogue, whatever the sort.
struct MemorySearchIndex: Sendable {
    private let movies: [CatalogMovie]
    private let years: [Int32]
    private let allWords: WordPostings
    private let titleWords: WordPostings
    private let grossing: MovieOrder
    private let rating: MovieOrder
    private let released: MovieOrder
    private let title: MovieOrder
    /// From how many movies a relevance is walked instead of sorted; `nil`: ``SearchTiers``' limit.
    private let sortingLimit: Int?

    init(_ movies: [CatalogMovie], sortingLimit: Int? = nil) {
        self.movies = movies
        self.sortingLimit = sortingLimit
        years = movies.map { Int32(clamping: $0.year) }
        let indexed = movies.map(SearchText.Indexed.init)
        allWords = WordPostings(count: movies.count) { indexed[$0].allWords.split(separator: " ") }
        titleWords = WordPostings(count: movies.count) { indexed[$0].titleWords.split(separator: " ") }
        func ids(_ a: Int, _ b: Int) -> Bool { movies[a].id < movies[b].id }
        grossing = MovieOrder(count: movies.count) { a, b in
            movies[a].grossing != movies[b].grossing ? movies[a].grossing < movies[b].grossing : ids(a, b)
        }
        rating = MovieOrder(count: movies.count) { a, b in
            movies[a].rating != movies[b].rating ? movies[a].rating < movies[b].rating : ids(a, b)
        }
        released = MovieOrder(count: movies.count) { a, b in
            movies[a].releaseDate != movies[b].releaseDate
                ? movies[a].releaseDate.unicodeScalars.lexicographicallyPrecedes(movies[b].releaseDate.unicodeScalars) : ids(a, b)
        }
        title = MovieOrder(count: movies.count) { a, b in
            indexed[a].titleKey != indexed[b].titleKey
                ? indexed[a].titleKey.unicodeScalars.lexicographicallyPrecedes(indexed[b].titleKey.unicodeScalars) : ids(a, b)
        }
    }

    /// The first `search.limit + 1` hits after `search.after`, in the search's order.
    func search(_ search: MovieSearch) -> [SearchHit] {
        guard !search.matchesNothing else { return [] }
        let page = Page(search: search, order: order(of: search.sort), movies: movies)
        if search.words.isEmpty {
            return page.walk(relevance: 0) { years[$0] == page.year ?? years[$0] }.map { SearchHit(movie: movies[$0], relevance: 0) }
        }
        let tiers = relevanceTiers(of: search)
        var found: [SearchHit] = []
        for relevance in stride(from: min(search.after?.relevance ?? search.words.count, search.words.count), through: 0, by: -1) {
            guard found.count < page.wanted, let members = tiers.members[relevance], !members.isEmpty else { continue }
            let wanted = page.wanted - found.count
            let movies = members.count < sortingLimit ?? SearchTiers.sortingLimit(limit: search.limit)
                ? page.sorted(members, relevance: relevance, limit: wanted)
                : page.walk(relevance: relevance, limit: wanted) { tiers.relevance[$0] == relevance }
            found += movies.map { SearchHit(movie: self.movies[$0], relevance: relevance) }
        }
        return found
    }

    private func order(of sort: SearchSort) -> MovieOrder {
        switch sort {
        case .relevance, .grossing: grossing
        case .rating: rating
        case .released: released
        case .title: title
        }
    }

    /// The movies matching every word of `search` (of its year), by relevance, and each movie's
    /// relevance (`UInt8.max` for a movie that does not match).
    private func relevanceTiers(of search: MovieSearch) -> (members: [Int: [Int]], relevance: [UInt8]) {
        let words = search.words
        var matched = [UInt8](repeating: 0, count: movies.count)
        var inTitle = [UInt8](repeating: 0, count: movies.count)
        var shortest: [[Int32]] = []
        var shortestLength = Int.max
        for (index, word) in words.enumerated() {
            let isLast = index == words.count - 1
            let lists = allWords.lists(for: word, asPrefix: isLast)
            count(lists, into: &matched, once: isLast)
            count(titleWords.lists(for: word, asPrefix: isLast), into: &inTitle, once: isLast)
            let length = lists.reduce(0) { $0 + $1.count }
            if length < shortestLength { (shortest, shortestLength) = (lists, length) }
        }
        var relevance = [UInt8](repeating: .max, count: movies.count)
        var members: [Int: [Int]] = [:]
        let everyWord = UInt8(words.count)
        for list in shortest {
            for movie in list.lazy.map(Int.init) where matched[movie] == everyWord {
                matched[movie] = 0
                guard search.year.map({ Int32(clamping: $0) == years[movie] }) ?? true else { continue }
                relevance[movie] = inTitle[movie]
                members[Int(inTitle[movie]), default: []].append(movie)
            }
        }
        return (members, relevance)
    }

    /// Adds one to `counts` for each movie in `lists`; with `once`, a movie in several lists (a
    /// prefix's words) counts once.
    private func count(_ lists: [[Int32]], into counts: inout [UInt8], once: Bool) {
        if lists.count == 1 || !once {
            for list in lists { for movie in list { counts[Int(movie)] &+= 1 } }
            return
        }
        var seen = Set<Int32>()
        for list in lists { for movie in list where seen.insert(movie).inserted { counts[Int(movie)] &+= 1 } }
    }
}

/// One page of a search over a ``MovieOrder``: where the cursor falls in the order, and the two
/// ways to read a relevance after it.
private struct Page {
    let search: MovieSearch
    let order: MovieOrder
    let movies: [CatalogMovie]
    var wanted: Int { search.limit + 1 }
    var year: Int32? { search.year.map { Int32(clamping: $0) } }

    /// The ranks of the movies after the cursor, in the page's direction, for a relevance: every
    /// rank in a relevance the cursor is not in.
    private func range(relevance: Int) -> (start: Int, end: Int) {
        guard let after = search.after, after.relevance == relevance else { return (0, order.order.count) }
        if search.order == .ascending {
            return (order.partition { !isInSortOrder(after, before: $0) }, order.order.count)
        }
        return (0, order.partition { isInSortOrder($0, before: after) })
    }

    /// Whether movie `movie` comes before `position` in the ascending (sort value, id) order.
    private func isInSortOrder(_ movie: Int, before position: SearchPosition) -> Bool {
        let key = sortKey(movie)
        return key != position.key ? key < position.key : movies[movie].id < position.id
    }

    /// Whether `position` comes before movie `movie` in the ascending (sort value, id) order.
    private func isInSortOrder(_ position: SearchPosition, before movie: Int) -> Bool {
        let key = sortKey(movie)
        return position.key != key ? position.key < key : position.id < movies[movie].id
    }

    private func sortKey(_ movie: Int) -> SortKey {
        let movie = movies[movie]
        return SortKey(movie, sort: search.sort, indexed: SearchText.Indexed(title: movie.name, cast: []))
    }

    /// Up to `limit` movies of the relevance after the cursor, met by walking the order.
    func walk(relevance: Int, limit: Int? = nil, where isMember: (Int) -> Bool) -> [Int] {
        let limit = limit ?? wanted
        let (start, end) = range(relevance: relevance)
        var found: [Int] = []
        if search.order == .ascending {
            var rank = start
            while rank < end, found.count < limit {
                let movie = Int(order.order[rank])
                if isMember(movie) { found.append(movie) }
                rank += 1
            }
        } else {
            var rank = end - 1
            while rank >= start, found.count < limit {
                let movie = Int(order.order[rank])
                if isMember(movie) { found.append(movie) }
                rank -= 1
            }
        }
        return found
    }

    /// Up to `limit` of `members` after the cursor, sorted by their ranks.
    func sorted(_ members: [Int], relevance: Int, limit: Int) -> [Int] {
        let (start, end) = range(relevance: relevance)
        let ranked = members.lazy.map { (movie: $0, rank: Int(order.rank[$0])) }.filter { (start..<end).contains($0.rank) }
        let ascending = search.order == .ascending
        return ranked.sorted { ascending ? $0.rank < $1.rank : $0.rank > $1.rank }.prefix(limit).map(\.movie)
    }
}
