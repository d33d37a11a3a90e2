import MovieContract

extension SearchText.Indexed {
    /// What a catalogue movie is found by.
    package init(_ movie: CatalogMovie) {
        self.init(title: movie.name, cast: movie.cast.map(\.name))
    }
}
