import MovieContract
import SearchPlanning

/// The catalogue's search and listing, for every backend: an order kept per sort (``MovieOrder``)
/// and inverted indexes of all words and title words (``WordPostings``), made once per catalogue
/// (at start in memory; for a database, per catalogue version: ``SearchIndexKeeper``).
///
/// A listing page is a range of its sort's order after the cursor. A search counts, for each
/// movie its words reach, how many of them it holds (all words, and title words), and whether its
/// title begins with them or is them (``PackedTitles``): its relevance. It then reads a relevance at a time, highest first, as ``SearchTiers`` does on SQLite: a relevance
/// with few movies is sorted by rank, one with many is met by walking the sort's order. No page
/// sorts the catalogue, whatever the sort.
struct MemorySearchIndex: Sendable {
    let ids: [Int]
    let years: [Int32]
    let grossingValues: [Int]
    let ratingValues: [Double]
    let releaseDates: PackedStrings
    let titleKeys: PackedStrings
    /// Minutes, 0 unknown; IMDb's votes, -1 unknown; genres as bits: what a filter tests.
    let runtimes: [Int32]
    let votes: [Int32]
    let genreBits: [UInt32]
    let allWords: WordPostings
    let titleWords: WordPostings
    let titles: PackedTitles
    /// The letters of `allWords`' words, for "did you mean".
    let spelling: SpellingIndex
    let grossing: MovieOrder
    let rating: MovieOrder
    let released: MovieOrder
    let title: MovieOrder
    /// From how many movies a relevance is walked instead of sorted; `nil`: ``SearchTiers``' limit.
    let sortingLimit: Int?
    /// How many ranks a walk of the order reads before the page is taken another way: the movies
    /// that belong are then scattered thinly, or gathered at the far end of the order (a least
    /// rating, listed by rating upwards), and walking the whole order cost tens of milliseconds.
    var walkBudget = 50_000

    /// An index from its parts, as a snapshot holds them (``SearchIndexSnapshot``).
    init(
        ids: [Int], years: [Int32], grossingValues: [Int], ratingValues: [Double], releaseDates: PackedStrings,
        titleKeys: PackedStrings, filterValues: (runtimes: [Int32], votes: [Int32], genreBits: [UInt32]),
        allWords: WordPostings, titleWords: WordPostings, titles: PackedTitles,
        orders: (grossing: MovieOrder, rating: MovieOrder, released: MovieOrder, title: MovieOrder)
    ) {
        (self.ids, self.years, self.grossingValues, self.ratingValues) = (ids, years, grossingValues, ratingValues)
        (runtimes, votes, genreBits) = filterValues
        (self.releaseDates, self.titleKeys, self.allWords, self.titleWords, self.titles) = (releaseDates, titleKeys, allWords, titleWords, titles)
        (grossing, rating, released, title) = orders
        spelling = SpellingIndex(allWords.words)
        sortingLimit = nil
    }

    init(_ movies: [CatalogMovie], sortingLimit: Int? = nil) {
        self.init(entries: SearchEntries(movies.map(SearchEntry.init)), sortingLimit: sortingLimit)
    }

    init(entries: SearchEntries, sortingLimit: Int? = nil) {
        self.sortingLimit = sortingLimit
        let ids = entries.ids
        let grossingValues = entries.grossing, ratingValues = entries.ratings
        let releaseDates = entries.releaseDates, titleKeys = entries.titleKeys
        (self.ids, self.grossingValues, self.ratingValues, self.releaseDates, self.titleKeys) = (ids, grossingValues, ratingValues, releaseDates, titleKeys)
        (years, runtimes, votes, genreBits) = (entries.years, entries.runtimes, entries.votes, entries.genres)
        allWords = WordPostings(count: entries.count, wordCount: entries.allWords.count(of: UInt8(ascii: " "))) {
            entries.allWords.string(at: $0).split(separator: " ")
        }
        titleWords = WordPostings(count: entries.count, wordCount: entries.titleWords.count(of: UInt8(ascii: " "))) {
            entries.titleWords.string(at: $0).split(separator: " ")
        }
        spelling = SpellingIndex(allWords.words)
        titles = PackedTitles(titles: entries.titleWords)
        func byID(_ a: Int, _ b: Int) -> Bool { ids[a] < ids[b] }
        grossing = MovieOrder(count: entries.count) { a, b in
            grossingValues[a] != grossingValues[b] ? grossingValues[a] < grossingValues[b] : byID(a, b)
        }
        rating = MovieOrder(count: entries.count) { a, b in
            ratingValues[a] != ratingValues[b] ? ratingValues[a] < ratingValues[b] : byID(a, b)
        }
        released = MovieOrder(count: entries.count) { a, b in
            let order = releaseDates.compare(a, b)
            return order != 0 ? order < 0 : byID(a, b)
        }
        title = MovieOrder(count: entries.count) { a, b in
            let order = titleKeys.compare(a, b)
            return order != 0 ? order < 0 : byID(a, b)
        }
    }

    /// How many movies the index holds.
    var count: Int { ids.count }

    /// The first `search.limit + 1` hits after `search.after`, in the search's order.
    func search(_ search: MovieSearch) -> [IndexHit] {
        guard !search.matchesNothing else { return [] }
        let page = Page(search: search, order: order(of: search.sort), sortKey: sortKey(for: search.sort), ids: ids)
        let filter = IndexFilter(search)
        if search.words.isEmpty {
            guard !search.filter.isEmpty else {
                let isMember: (Int) -> Bool = { years[$0] == page.year ?? years[$0] }
                let found = page.walk(relevance: 0, budget: walkBudget, where: isMember)
                    ?? page.selected((0..<count).lazy.filter(isMember), relevance: 0, limit: page.wanted)
                return found.map { IndexHit(id: ids[$0], relevance: 0) }
            }
            return filteredListing(page, filter: filter).map { IndexHit(id: ids[$0], relevance: 0) }
        }
        let tiers = relevanceTiers(of: search, filter: filter)
        var found: [IndexHit] = []
        let highest = SearchText.highestRelevance(search.words)
        for relevance in stride(from: min(search.after?.relevance ?? highest, highest), through: 0, by: -1) {
            guard found.count < page.wanted, relevance < tiers.members.count else { continue }
            let members = tiers.members[relevance]
            guard !members.isEmpty else { continue }
            let wanted = page.wanted - found.count
            let movies = members.count < sortingLimit ?? SearchTiers.sortingLimit(limit: search.limit)
                ? page.sorted(members, relevance: relevance, limit: wanted)
                : page.walk(relevance: relevance, limit: wanted, budget: walkBudget) { tiers.relevance[$0] == relevance }
                    ?? page.selected(members, relevance: relevance, limit: wanted)
            found += movies.map { IndexHit(id: ids[$0], relevance: relevance) }
        }
        return found
    }

    /// The sort value of a movie (by index), as a cursor holds it.
    private func sortKey(for sort: SearchSort) -> @Sendable (Int) -> SortKey {
        switch sort {
        case .relevance, .grossing: { [grossingValues] in .integer(grossingValues[$0]) }
        case .rating: { [ratingValues] in .number(ratingValues[$0]) }
        case .released: { [releaseDates] in .text(releaseDates.string(at: $0)) }
        case .title: { [titleKeys] in .text(titleKeys.string(at: $0)) }
        }
    }

    private func order(of sort: SearchSort) -> MovieOrder {
        switch sort {
        case .relevance, .grossing: grossing
        case .rating: rating
        case .released: released
        case .title: title
        }
    }

    /// The movies matching every word of `search` (of its year), by relevance (an array per
    /// relevance: a dictionary's lookup per match cost tens of milliseconds for a broad prefix),
    /// and each movie's relevance (`UInt8.max` for a movie that does not match).
    private func relevanceTiers(of search: MovieSearch, filter: IndexFilter) -> (members: [[Int]], relevance: [UInt8]) {
        let words = search.words
        var matched = [UInt8](repeating: 0, count: ids.count)
        var inTitle = [UInt8](repeating: 0, count: ids.count)
        var shortest: [ArraySlice<Int32>] = []
        var shortestLength = Int.max
        for (index, word) in words.enumerated() {
            let isLast = index == words.count - 1
            let lists = allWords.lists(for: word, asPrefix: isLast)
            count(lists, into: &matched, once: isLast)
            count(titleWords.lists(for: word, asPrefix: isLast), into: &inTitle, once: isLast)
            let length = lists.reduce(0) { $0 + $1.count }
            if length < shortestLength { (shortest, shortestLength) = (lists, length) }
        }
        var relevance = [UInt8](repeating: .max, count: ids.count)
        let highest = SearchText.highestRelevance(words)
        var members = [[Int]](repeating: [], count: highest + 1)
        let everyWord = UInt8(words.count)
        let start = Array(SearchText.titleStart(words).utf8), whole = Array(SearchText.wholeTitle(words).utf8)
        titles.withBonus(start: start, whole: whole) { bonus in
            for list in shortest {
                for movie in list.lazy.map(Int.init) where matched[movie] == everyWord {
                    matched[movie] = 0
                    guard admits(movie, filter) else { continue }
                    var found = min(Int(inTitle[movie]), words.count)
                    if found == words.count { found += bonus(movie) }
                    relevance[movie] = UInt8(found)
                    members[found].append(movie)
                }
            }
        }
        return (members, relevance)
    }

    /// A filtered listing: the movies that pass are counted in one pass over the arrays, up to
    /// the sorting limit. Few are sorted by rank; many are met by walking the order, where they
    /// are then dense enough to be met soon (a filter that kept a few dozen of a million movies
    /// walked the whole order: tens of milliseconds).
    private func filteredListing(_ page: Page, filter: IndexFilter) -> [Int] {
        let limit = sortingLimit ?? SearchTiers.sortingLimit(limit: page.search.limit)
        var members: [Int] = []
        for movie in 0..<count where admits(movie, filter) {
            members.append(movie)
            if members.count >= limit {
                return page.walk(relevance: 0, budget: walkBudget) { admits($0, filter) }
                    ?? page.selected((0..<count).lazy.filter { admits($0, filter) }, relevance: 0, limit: page.wanted)
            }
        }
        return page.sorted(members, relevance: 0, limit: page.wanted)
    }

    /// Whether movie `movie` (by index) passes the search's year and filter.
    func admits(_ movie: Int, _ filter: IndexFilter) -> Bool {
        years[movie] >= filter.firstYear && years[movie] <= filter.lastYear
            && (filter.runtime?.contains(runtimes[movie]) ?? true)
            && votes[movie] >= filter.minimumVotes
            && ratingValues[movie] >= filter.minimumRating
            && genreBits[movie] & filter.genres == filter.genres
    }

    /// Adds one to `counts` for each movie in `lists`; with `once`, a movie in several lists (a
    /// prefix's words) counts once. The movies seen are marked in an array, not a set: a prefix of
    /// one letter reaches most of a large catalogue, and hashing each took tens of milliseconds.
    private func count(_ lists: [ArraySlice<Int32>], into counts: inout [UInt8], once: Bool) {
        if lists.count == 1 || !once {
            for list in lists { for movie in list { counts[Int(movie)] &+= 1 } }
            return
        }
        var seen = [Bool](repeating: false, count: counts.count)
        for list in lists {
            for movie in list.lazy.map(Int.init) where !seen[movie] {
                seen[movie] = true
                counts[movie] &+= 1
            }
        }
    }
}

/// One page of a search over a ``MovieOrder``: where the cursor falls in the order, and the two
/// ways to read a relevance after it.
private struct Page {
    let search: MovieSearch
    let order: MovieOrder
    let sortKey: (Int) -> SortKey
    let ids: [Int]
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
        return key != position.key ? key < position.key : ids[movie] < position.id
    }

    /// Whether `position` comes before movie `movie` in the ascending (sort value, id) order.
    private func isInSortOrder(_ position: SearchPosition, before movie: Int) -> Bool {
        let key = sortKey(movie)
        return position.key != key ? position.key < key : position.id < ids[movie]
    }

    /// Up to `limit` movies of the relevance after the cursor, met by walking the order; nil when
    /// `budget` ranks were read and the page is not full (``selected(_:relevance:limit:)`` takes it then).
    func walk(relevance: Int, limit: Int? = nil, budget: Int = .max, where isMember: (Int) -> Bool) -> [Int]? {
        let limit = limit ?? wanted
        let (start, end) = range(relevance: relevance)
        var found: [Int] = []
        var read = 0
        if search.order == .ascending {
            var rank = start
            while rank < end, found.count < limit {
                guard read < budget else { return nil }
                let movie = Int(order.order[rank])
                if isMember(movie) { found.append(movie) }
                rank += 1
                read += 1
            }
        } else {
            var rank = end - 1
            while rank >= start, found.count < limit {
                guard read < budget else { return nil }
                let movie = Int(order.order[rank])
                if isMember(movie) { found.append(movie) }
                rank -= 1
                read += 1
            }
        }
        return found
    }

    /// The first `limit` of `members` after the cursor, by rank: one pass that keeps the best
    /// `limit` seen, in order, instead of sorting them all.
    func selected(_ members: some Sequence<Int>, relevance: Int, limit: Int) -> [Int] {
        let (start, end) = range(relevance: relevance)
        let ascending = search.order == .ascending
        var best: [(rank: Int32, movie: Int)] = []
        best.reserveCapacity(limit + 1)
        for movie in members {
            let rank = order.rank[movie]
            guard rank >= start, rank < end else { continue }
            if best.count == limit, let worst = best.last, ascending ? rank >= worst.rank : rank <= worst.rank { continue }
            var low = 0, high = best.count
            while low < high {
                let middle = (low + high) / 2
                if ascending ? best[middle].rank < rank : best[middle].rank > rank { low = middle + 1 } else { high = middle }
            }
            best.insert((rank, movie), at: low)
            if best.count > limit { best.removeLast() }
        }
        return best.map(\.movie)
    }

    /// Up to `limit` of `members` after the cursor, sorted by their ranks.
    func sorted(_ members: [Int], relevance: Int, limit: Int) -> [Int] {
        let (start, end) = range(relevance: relevance)
        let ranked = members.lazy.map { (movie: $0, rank: Int(order.rank[$0])) }.filter { (start..<end).contains($0.rank) }
        let ascending = search.order == .ascending
        return ranked.sorted { ascending ? $0.rank < $1.rank : $0.rank > $1.rank }.prefix(limit).map(\.movie)
    }
}
