import Movies

/// A ``MovieService`` that also answers by a ``CachePolicy``, as a stream of snapshots that say
/// where each answer came from. What the app's commands depend on; ``CachedMovieService`` is
/// the implementation.
public protocol OfflineMovieService: MovieService {
    func topGrossingMovies(year: Int, policy: CachePolicy) -> AsyncThrowingStream<MovieSnapshot<[Movie]>, any Error>
    func topRatedMovies(year: Int, policy: CachePolicy) -> AsyncThrowingStream<MovieSnapshot<[Movie]>, any Error>
    func movie(id: Int, policy: CachePolicy) -> AsyncThrowingStream<MovieSnapshot<Movie>, any Error>

    /// The stored list now and after every change to it.
    func observeTopGrossing(year: Int) -> AsyncThrowingStream<StoredValue<[Movie]>?, any Error>
    func observeTopRated(year: Int) -> AsyncThrowingStream<StoredValue<[Movie]>?, any Error>

    /// Makes the observations see what other processes store, until cancelled
    /// (``MovieStore/relayWritesOfOtherProcesses(every:)``).
    func relayWritesOfOtherProcesses() async throws
}

extension CachedMovieService: OfflineMovieService {}
