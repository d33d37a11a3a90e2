import MovieContract

/// Gets movies from somewhere: an API, a local store, or a decorator that combines them.
///
/// The app depends on this protocol only. Which implementation backs it is decided in one
/// place, the app's composition root. `Failure` is the implementation's own error type (the
/// movie API's is `NetworkError`), so a caller that knows the implementation keeps the error's type.
///
/// A service that can ask conditionally (with the entity tag of an answer the caller holds)
/// implements the `ifNoneMatch` calls; for one that cannot, they always answer
/// ``Revalidation/modified(_:_:)`` with ``Freshness/unknown``.
public protocol MovieService<Failure>: Sendable {
    associatedtype Failure: Error

    /// The movie with the given id.
    func movie(id: Int) async throws(Failure) -> Movie

    /// The movies of `list` for `year`, in the list's order.
    func movies(_ list: MovieList, year: Int) async throws(Failure) -> [Movie]

    /// One page of a search or listing of the whole catalogue.
    func search(_ request: MovieSearchRequest) async throws(Failure) -> MovieSearchPage

    /// What a search of `request`'s words (and year) that found little probably meant; `nil`
    /// when nothing is suggested, or the service suggests nothing.
    func suggestion(for request: MovieSearchRequest) async throws(Failure) -> SearchSuggestion?

    /// The movie with the given id, or word that the answer tagged `entityTag` is still current.
    func movie(id: Int, ifNoneMatch entityTag: String?) async throws(Failure) -> Revalidation<Movie>

    /// The movies of `list` for `year`, or word that the answer tagged `entityTag` is still current.
    func movies(_ list: MovieList, year: Int, ifNoneMatch entityTag: String?) async throws(Failure) -> Revalidation<[Movie]>

    /// Whether `failure` means the service could not answer now, so that a stored answer may
    /// stand in; `false` for an answer to the request itself (a refusal, a bad request), which a
    /// stored answer must not hide. Every failure, unless the service says otherwise.
    func isUnavailable(_ failure: Failure) -> Bool

    /// Whether `failure` to a search means the service has no search at all (the original static
    /// site answers its path with a 404), so that searching what is stored is the answer.
    func hasNoSearch(_ failure: Failure) -> Bool
}

extension MovieService {
    public func isUnavailable(_ failure: Failure) -> Bool { true }

    public func hasNoSearch(_ failure: Failure) -> Bool { false }

    public func suggestion(for request: MovieSearchRequest) async throws(Failure) -> SearchSuggestion? { nil }

    public func movie(id: Int, ifNoneMatch entityTag: String?) async throws(Failure) -> Revalidation<Movie> {
        .modified(try await movie(id: id), .unknown)
    }

    public func movies(_ list: MovieList, year: Int, ifNoneMatch entityTag: String?) async throws(Failure) -> Revalidation<[Movie]> {
        .modified(try await movies(list, year: year), .unknown)
    }
}
