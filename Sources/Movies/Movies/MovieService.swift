/// Gets movies from somewhere: an API, a local store, or a decorator that combines them.
///
/// The app depends on this protocol only. Which implementation backs it is decided in one
/// place, the app's composition root.
public protocol MovieService: Sendable {
    /// The movie with the given id.
    func movie(id: Int) async throws -> Movie

    /// At most ten movies of `year`, highest grossing first.
    func topGrossingMovies(year: Int) async throws -> [Movie]

    /// At most ten movies of `year`, highest rated first.
    func topRatedMovies(year: Int) async throws -> [Movie]
}
