/// Gets movies from somewhere: an API, a local store, or a decorator that combines them.
///
/// The app depends on this protocol only. Which implementation backs it is decided in one
/// place, the app's composition root. `Failure` is the implementation's own error type (the
/// movie API's is `NetworkError`), so a caller that knows the implementation keeps the error's type.
public protocol MovieService<Failure>: Sendable {
    associatedtype Failure: Error

    /// The movie with the given id.
    func movie(id: Int) async throws(Failure) -> Movie

    /// At most ten movies of `year`, highest grossing first.
    func topGrossingMovies(year: Int) async throws(Failure) -> [Movie]

    /// At most ten movies of `year`, highest rated first.
    func topRatedMovies(year: Int) async throws(Failure) -> [Movie]
}
