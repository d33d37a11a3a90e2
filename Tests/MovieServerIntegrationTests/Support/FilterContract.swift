import MovieContract
import MovieServer
import SearchPlanning

/// The search contract's catalogue with IMDb's details on most movies (some know none, some
/// only a few), and query strings that filter by each of them, alone and together, with and
/// without words, in every sort and both orders.
enum FilterContract {
    static let genres = ["Drama", "Comedy", "Horror", "Sci-Fi", "Romance", "Film-Noir"]

    static let catalog: Catalog = {
        let movies = SearchContract.catalog.movies.map { movie in
            var movie = movie
            let id = movie.id
            movie.details.runtimeMinutes = id % 7 == 0 ? nil : 60 + (id &* 37) % 121
            movie.details.votes = id % 5 == 0 ? nil : (id &* 7919) % 200_000
            if id % 9 != 0 {
                let count = 1 + id % 3
                movie.details.genres = (0..<count).map { genres[(id / 3 + $0 * 2) % genres.count] }
            }
            return movie
        }
        return try! Catalog(movies: movies, source: "filter test")
    }()

    static let movieWords: [(movie: CatalogMovie, title: [String], all: [String])] = catalog.movies.map { movie in
        let title = SearchText.titleWords(movie.name)
        return (movie, title, title + movie.cast.flatMap { SearchText.words($0.name) })
    }

    static let queries: [String] = [
        "genre=Drama", "genre=drama,COMEDY", "genre=Sci-Fi,Horror", "genre=Film-Noir&sort=title",
        "runtime=80-120", "runtime=150-&sort=rating&order=asc", "runtime=95", "minVotes=150000", "minVotes=0&sort=released",
        "minRating=80", "minRating=42.5&order=asc", "year=2015-2016", "year=2016-&sort=title&order=desc",
        "genre=Romance&runtime=70-140&minVotes=20000&minRating=30&year=2014-2016&sort=released&order=asc",
        "query=the&genre=Drama", "query=the&runtime=60-100&sort=title", "query=e&minVotes=100000&sort=rating",
        "query=the&year=2016&genre=Comedy", "query=re&year=2014-2015&minRating=50&order=asc", "query=pokemon&genre=Drama",
        "genre=Horror&minVotes=199000", "query=zzz&genre=Drama",
    ] + ["minVotes=\(boundaryVotes)&sort=title", "query=the&minVotes=\(boundaryVotes)"]

    /// A number of votes some movie has exactly: "at least" includes it.
    static let boundaryVotes = catalog.movies.compactMap(\.details.votes).sorted()[catalog.movies.count / 2]

    /// The filter a query string asks for, read as the contract documents it (one year is the year, not a span).
    static func filter(_ parameters: [String: String]) throws -> MovieFilter {
        var filter = MovieFilter()
        if let year = parameters["year"], year.contains("-") { filter.years = try MovieFilterText.years(year) }
        if let genre = parameters["genre"] { filter.require(genres: try MovieFilterText.genres(genre)) }
        filter.runtime = try parameters["runtime"].map(MovieFilterText.runtime)
        filter.minimumVotes = try parameters["minVotes"].map(MovieFilterText.minimumVotes)
        filter.minimumRating = try parameters["minRating"].map(MovieFilterText.minimumRating)
        return filter
    }
}
