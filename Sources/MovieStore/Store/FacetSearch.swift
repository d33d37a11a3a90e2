import MovieContract
import Movies

/// A filtered page read from the API's facets (``StoredFacets``): without words, the sort's order
/// walked until the page is full; with words and a filter few movies pass, those that hold the
/// words, ranked by ``MovieSearching/relevance(_:)``'s rule on their title words, then by the
/// sort and the id. Only the page's rows are read from the table. The same movies in the same
/// order as ``MovieSearching/ranked(_:limit:api:in:)``.
struct FacetSearch {
    /// Up to how many movies that pass the filter have their words tested in memory (a word is in
    /// the title's or the cast's words as the text index holds them); past it, the filter is broad
    /// and a relevance at a time, walked in the sort's order, meets the page sooner.
    static let mostTestedInMemory = 20_000

    let facets: StoredFacets
    let request: MovieSearchRequest
    var testedInMemory = Self.mostTestedInMemory

    /// The row ids of the first `limit` movies, in the page's order; nil for words with a filter
    /// that more than ``testedInMemory`` movies pass, whose page a walk of the sort's order meets
    /// sooner (``TieredStoreSearch``).
    func rowIDs(limit: Int) -> [Int64]? {
        let sort = StoredSortIndex(request.effectiveSort)
        guard let order = facets.orders[sort], let rank = facets.ranks[sort], limit > 0 else { return [] }
        let ascending = request.effectiveOrder == .ascending
        let genres = MovieFilter.genreBits(request.filter.genres)
        let words = request.words
        if words.isEmpty {
            var page: [Int64] = []
            for position in order.indices {
                let index = Int(order[ascending ? position : order.count - 1 - position])
                guard facets.passes(index, filter: request.filter, genres: genres, year: request.year) else { continue }
                page.append(facets.rowIDs[index])
                if page.count == limit { break }
            }
            return page
        }
        let relevance = Relevance(words)
        var found: [(relevance: Int, rank: Int32, rowID: Int64)] = []
        var passing: [Int] = []
        for index in facets.rowIDs.indices where facets.passes(index, filter: request.filter, genres: genres, year: request.year) {
            passing.append(index)
            if passing.count > testedInMemory { break }
        }
        guard passing.count <= testedInMemory else { return nil }
        for index in passing where relevance.needles.allSatisfy({ facets.titleWords.contains(index, $0) || facets.castWords.contains(index, $0) }) {
            found.append((relevance.of(index, in: facets.titleWords), ascending ? rank[index] : -rank[index], facets.rowIDs[index]))
        }
        found.sort { $0.relevance != $1.relevance ? $0.relevance > $1.relevance : $0.rank < $1.rank }
        return found.prefix(limit).map(\.rowID)
    }

    /// The relevance of ``MovieSearching/relevance(_:)``, on title words held as bytes.
    private struct Relevance {
        let needles: [[UInt8]]
        let start: [UInt8]
        let whole: [UInt8]

        init(_ words: [String]) {
            needles = words.indices.map { Array(SearchText.needle(words, $0).utf8) }
            start = Array(SearchText.titleStart(words).utf8)
            whole = Array(SearchText.wholeTitle(words).utf8)
        }

        func of(_ index: Int, in titles: PackedText) -> Int {
            var relevance = needles.reduce(0) { $0 + (titles.contains(index, $1) ? 1 : 0) }
            if titles.hasPrefix(index, start) { relevance += 1 }
            if titles.hasPrefix(index, whole) { relevance += 1 }
            if titles.equals(index, whole) { relevance += 1 }
            return relevance
        }
    }
}
