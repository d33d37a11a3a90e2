import MovieContract
import SearchPlanning

/// How a search over an FTS5 table came out of ``SearchTiers/readWithFTS5(titleColumn:count:sorted:walked:)``.
package enum FTS5TierReading<Item> {
    /// Nothing matches.
    case nothing
    /// Fewer movies match than ``SearchTiers/sortingLimit``: rank them all in one statement.
    case fewMatches
    /// The page (and one more, to tell whether another follows), highest relevance first.
    case byRelevance([(item: Item, relevance: Int)])
}

extension SearchTiers {
    /// Reads the search a relevance at a time from an FTS5 table whose column `titleColumn` holds
    /// the titles' words, the same way on every SQLite database (the server's catalogue, the
    /// client's store): every match counted up to ``sortingLimit``, then the relevances a title
    /// can hold, each counted and read by `sorted` or `walked` as ``reading(count:)`` says, until
    /// ``limit`` + 1 items are found.
    ///
    /// - Parameters:
    ///   - count: how many movies an FTS5 query matches, counting no further than the limit given.
    ///   - sorted: the first movies (up to the limit given) of a relevance's query, sorted.
    ///   - walked: the first movies (up to the limit given) of a relevance, met by walking the sort's
    ///     index, which may stop early (after a budget of rows): a walk that meets fewer than asked
    ///     is read again by `sorted`, so a relevance whose movies lie late in the order (a title
    ///     word under its own letter) costs a bounded walk and a sort, not a walk of the catalogue.
    func readWithFTS5<Item>(
        titleColumn: String,
        count: (_ match: String, _ upTo: Int) throws -> Int,
        sorted: (_ match: String, _ relevance: Int, _ limit: Int) throws -> [Item],
        walked: (_ relevance: Int, _ limit: Int) throws -> [Item],
        titleStarts: TitleStartReading<Item>
    ) throws -> FTS5TierReading<Item> {
        let total = try count(FTS5Query.allWords(words), sortingLimit)
        guard total > 0 else { return .nothing }
        if total < sortingLimit, strategy == .bySize { return .fewMatches }
        let inSomeTitle = try words.indices.filter { index in
            try count(fts5Query(wordInTitle: index, titleColumn: titleColumn), 1) > 0
        }.count
        let wanted = limit + 1
        var found: [(item: Item, relevance: Int)] = []
        for relevance in relevances(wordsInSomeTitle: inSomeTitle) where found.count < wanted {
            let asked = wanted - found.count
            if isTitleStart(relevance) {
                let matching = try titleStarts.count(relevance, sortingLimit)
                guard matching > 0 else { continue }
                let items: [Item]
                switch reading(count: matching) {
                case .sortingMatches:
                    items = try titleStarts.sorted(relevance, asked)
                case .walkingIndex:
                    let met = try walked(relevance, asked)
                    items = met.count < asked ? try titleStarts.sorted(relevance, asked) : met
                }
                found += items.map { ($0, relevance) }
                continue
            }
            let match = fts5Query(relevance: relevance, wordsInSomeTitle: inSomeTitle, titleColumn: titleColumn)
            let matching = relevance == 0 && inSomeTitle == 0 ? total : try count(match, sortingLimit)
            guard matching > 0 else { continue }
            let items: [Item]
            switch reading(count: matching) {
            case .sortingMatches:
                items = try sorted(match, relevance, asked)
            case .walkingIndex:
                let met = try walked(relevance, asked)
                items = met.count < asked ? try sorted(match, relevance, asked) : met
            }
            found += items.map { ($0, relevance) }
        }
        return .byRelevance(found)
    }
}

/// How the relevances of titles that begin with a search's words (or are them) are read: through
/// an index of the title words, not the text index, which cannot tell where a word stands.
package struct TitleStartReading<Item> {
    /// How many movies of a relevance there are, counting no further than the limit given.
    let count: (_ relevance: Int, _ upTo: Int) throws -> Int
    /// The first movies (up to the limit given) of a relevance, sorted.
    let sorted: (_ relevance: Int, _ limit: Int) throws -> [Item]

    package init(count: @escaping (_ relevance: Int, _ upTo: Int) throws -> Int, sorted: @escaping (_ relevance: Int, _ limit: Int) throws -> [Item]) {
        self.count = count
        self.sorted = sorted
    }
}
