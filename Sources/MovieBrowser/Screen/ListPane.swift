import Movies

/// One segment's table: its movies, where they came from, and the selected row.
public struct ListPane: Sendable, Equatable {
    public var movies: [Movie] = []
    public var answer = Answer()
    private var rows = RowSelection()
    /// The selected row, an index into ``movies``.
    public var selection: Int {
        get { rows.selected }
        set { rows.selected = newValue }
    }
    /// The first row on screen.
    public var firstVisible: Int {
        get { rows.firstVisible }
        set { rows.firstVisible = newValue }
    }

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
        rows.select(row, count: movies.count)
    }

    /// Scrolls so that the selected row is one of the `visibleRows` on screen.
    mutating func reveal(visibleRows: Int) {
        rows.reveal(visibleRows: visibleRows, count: movies.count)
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
