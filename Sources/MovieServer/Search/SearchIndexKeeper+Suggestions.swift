import MovieContract

extension SearchIndexKeeper {
    /// What a search of `words` of `year` probably meant, from the index of catalogue `version`;
    /// with no suggestion and `indexReady` false while there is no index of it (one is then
    /// begun): the database's own search is not asked, so the answer stays quick.
    package func suggestion(for words: [String], year: Int?, latestYear: Int, version: Int64) -> SuggestionWire.Answer {
        guard let index = index(of: version) else { return SuggestionWire.Answer(suggestion: nil, indexReady: false) }
        return SuggestionWire.Answer(suggestion: index.suggestion(for: words, year: year, latestYear: latestYear))
    }
}
