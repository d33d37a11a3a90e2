import Movies

extension SearchText.Indexed {
    /// What a catalogue movie is found by.
    init(_ movie: CatalogMovie) {
        self.init(title: movie.name, cast: movie.cast.map(\.name))
    }
}
