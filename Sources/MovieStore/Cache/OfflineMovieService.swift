import MovieContract
import Movies

/// A `MovieService` that also answers by a ``CachePolicy``, with snapshots that say where each
/// answer came from, and whose failures keep the network's type. What the app's commands and
/// the browser depend on; ``CachedMovieService`` is the implementation.
public protocol OfflineMovieService<NetworkFailure>: MovieService where Failure == CacheFailure<NetworkFailure> {
    associatedtype NetworkFailure: Error

    func movies(
        _ list: MovieList, year: Int, policy: CachePolicy,
        each: (MovieSnapshot<[Movie], NetworkFailure>) -> Void
    ) async throws(CacheFailure<NetworkFailure>) -> MovieSnapshot<[Movie], NetworkFailure>

    func movie(
        id: Int, policy: CachePolicy,
        each: (MovieSnapshot<Movie, NetworkFailure>) -> Void
    ) async throws(CacheFailure<NetworkFailure>) -> MovieSnapshot<Movie, NetworkFailure>

    func search(_ request: MovieSearchRequest, all: Bool, policy: CachePolicy) async throws(CacheFailure<NetworkFailure>) -> MovieSnapshot<MovieSearchPage, NetworkFailure>

    /// What a search that found little probably meant: the server's suggestion, or the stored
    /// movies' when `offline` or the network cannot answer; `nil` on any failure.
    func suggestion(for request: MovieSearchRequest, offline: Bool) async -> StoredSuggestion?

    /// The stored list now and after every change to it.
    func observe(_ list: MovieList, year: Int) -> AsyncThrowingStream<StoredValue<[Movie]>?, any Error>

    /// Makes the observations see what other processes store, until cancelled.
    func relayWritesOfOtherProcesses() async throws

    /// Tells the store what a screen shows now, so that its budget never evicts it.
    func show(_ shown: ShownOnScreen) async
}

extension CachedMovieService: OfflineMovieService {
    public typealias NetworkFailure = Base.Failure

    public func show(_ shown: ShownOnScreen) async {
        // A screen whose pins cannot be written still works; only its movies may be evicted.
        try? await store.show(shown, api: api)
    }
}
