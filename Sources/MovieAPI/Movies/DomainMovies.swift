import Foundation
import MovieContract
import Movies
import Networking

/// The contract's movies made domain movies: the one check the wire type leaves to the client is
/// that a release date is a real `yyyy-MM-dd` day, failed with the JSON path of the date.
enum DomainMovies {
    static func movie(_ movie: CatalogMovie, at path: String) throws(NetworkError) -> Movie {
        guard let releaseDate = CalendarDate.date(from: movie.releaseDate) else {
            throw .cannotDecode(path: path + ".releaseDate", reason: "expected a yyyy-MM-dd date, found '\(movie.releaseDate.prefix(40))'")
        }
        let details = movie.details
        return Movie(
            id: movie.id, name: movie.name, year: movie.year, releaseDate: releaseDate,
            grossing: movie.grossing, rating: movie.rating, cast: movie.cast.map { MovieActor(name: $0.name) },
            details: details == CatalogMovieDetails() ? nil : MovieDetails(
                imdbID: details.imdbID, originalTitle: details.originalTitle, runtimeMinutes: details.runtimeMinutes, genres: details.genres, votes: details.votes
            )
        )
    }

    static func movies(_ movies: [CatalogMovie], at path: String) throws(NetworkError) -> [Movie] {
        var domain: [Movie] = []
        domain.reserveCapacity(movies.count)
        for (index, movie) in movies.enumerated() {
            domain.append(try self.movie(movie, at: "\(path)[\(index)]"))
        }
        return domain
    }

    static func page(_ page: MoviePageWire) throws(NetworkError) -> MovieSearchPage {
        MovieSearchPage(movies: try movies(page.movies, at: "$.movies"), next: page.next, firstRank: page.rank.flatMap { $0 > 0 ? $0 : nil } ?? 1)
    }
}
