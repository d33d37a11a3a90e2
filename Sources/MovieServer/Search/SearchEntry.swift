import Movies

/// What the search index keeps of a movie: its id and year, the values it is sorted by, and its
/// folded words. Read from a database's catalogue or made from a catalogue movie.
struct SearchEntry: Sendable {
    var id: Int
    var year: Int
    var grossing: Int
    var rating: Double
    var releaseDate: String
    var titleKey: String
    /// ` finding dory `: the words a relevance counts.
    var titleWords: String
    /// The title's words and the cast's, spaced as ``titleWords``.
    var allWords: String
}

extension SearchEntry {
    init(_ movie: CatalogMovie) {
        let indexed = SearchText.Indexed(movie)
        self.init(
            id: movie.id, year: movie.year, grossing: movie.grossing, rating: movie.rating, releaseDate: movie.releaseDate,
            titleKey: indexed.titleKey, titleWords: indexed.titleWords, allWords: indexed.allWords
        )
    }
}

/// A movie the search index found: its id, and its relevance to the search's words.
struct IndexHit: Sendable, Hashable {
    var id: Int
    var relevance: Int
}
