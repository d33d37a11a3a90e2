import MovieContract

/// What the search index keeps of a movie: its id and year, the values it is sorted by, and its
/// folded words. Read from a database's catalogue or made from a catalogue movie.
package struct SearchEntry: Sendable {
    package var id: Int
    package var year: Int
    package var grossing: Int
    package var rating: Double
    package var releaseDate: String
    package var titleKey: String
    /// ` finding dory `: the words a relevance counts.
    package var titleWords: String
    /// The title's words and the cast's, spaced as ``titleWords``.
    package var allWords: String
    /// Minutes; 0 when the catalogue does not know.
    package var runtime: Int
    /// IMDb's votes; -1 when the catalogue does not know.
    package var votes: Int
    /// The genres as ``MovieFilter/genreBits(_:)`` gives them.
    package var genres: UInt32

    package init(
        id: Int, year: Int, grossing: Int, rating: Double, releaseDate: String, titleKey: String, titleWords: String, allWords: String,
        runtime: Int = 0, votes: Int = -1, genres: UInt32 = 0
    ) {
        self.runtime = runtime
        self.votes = votes
        self.genres = genres
        self.id = id
        self.year = year
        self.grossing = grossing
        self.rating = rating
        self.releaseDate = releaseDate
        self.titleKey = titleKey
        self.titleWords = titleWords
        self.allWords = allWords
    }
}

extension SearchEntry {
    package init(_ movie: CatalogMovie) {
        let indexed = SearchText.Indexed(movie)
        self.init(
            id: movie.id, year: movie.year, grossing: movie.grossing, rating: movie.rating, releaseDate: movie.releaseDate,
            titleKey: indexed.titleKey, titleWords: indexed.titleWords, allWords: indexed.allWords,
            runtime: movie.details.runtimeMinutes ?? 0, votes: movie.details.votes ?? -1, genres: MovieFilter.genreBits(movie.details.genres)
        )
    }
}

/// A movie the search index found: its id, and its relevance to the search's words.
package struct IndexHit: Sendable, Hashable {
    package var id: Int
    package var relevance: Int
}
