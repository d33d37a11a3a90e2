import Movies

/// One segment's table: its movies, where they came from, and the selected row.
public struct ListPane: Sendable, Equatable {
    public var movies: [Movie] = []
    public var answer = Answer()
    /// The selected row, an index into ``movies``.
    public var selection = 0
    /// The first row on screen.
    public var firstVisible = 0

    public init(movies: [Movie] = [], answer: Answer = Answer()) {
        self.movies = movies
        self.answer = answer
    }

    public var selectedMovie: Movie? { movies.indices.contains(selection) ? movies[selection] : nil }

    /// Moves the selection by `rows` (negative is up), keeping it in the table.
    mutating func move(by rows: Int) {
        select(selection + rows)
    }

    mutating func select(_ row: Int) {
        selection = movies.isEmpty ? 0 : min(max(0, row), movies.count - 1)
    }

    /// Scrolls so that the selected row is one of the `visibleRows` on screen.
    mutating func reveal(visibleRows: Int) {
        let rows = max(1, visibleRows)
        if selection < firstVisible { firstVisible = selection }
        if selection >= firstVisible + rows { firstVisible = selection - rows + 1 }
        firstVisible = max(0, min(firstVisible, max(0, movies.count - rows)))
    }

    /// Shows `movies`, keeping the same movie selected when it is still listed.
    mutating func replaceMovies(with movies: [Movie]) {
        let selectedID = selectedMovie?.id
        self.movies = movies
        select(movies.firstIndex { $0.id == selectedID } ?? selection)
    }
}

/// The movie opened from a table: its details and whole cast.
public struct DetailPane: Sendable, Equatable {
    public var movie: Movie
    public var answer: Answer
    /// The first line of the details on screen.
    public var firstVisible = 0

    public init(movie: Movie, answer: Answer) {
        self.movie = movie
        self.answer = answer
    }

    /// The cast scrolls until its last member is the first line shown, no further.
    var lastFirstVisible: Int { max(0, movie.cast.count - 1) }
}
