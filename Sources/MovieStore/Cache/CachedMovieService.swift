import Foundation
import Movies

/// A ``MovieService`` decorator that keeps every answer of its base service in a ``MovieStore``
/// and answers from it by a ``CachePolicy``: offline first.
///
/// The base can be any `MovieService`; this type never knows which. A network answer replaces
/// the stored one in one transaction; a failed call never removes or changes stored data.
public final class CachedMovieService: MovieService {
    public let base: any MovieService
    public let store: MovieStore
    /// The policy of the plain `MovieService` calls.
    public let defaultPolicy: CachePolicy
    private let now: @Sendable () -> Date

    public init(base: any MovieService, store: MovieStore, defaultPolicy: CachePolicy = .networkElseCache, now: @escaping @Sendable () -> Date = { Date() }) {
        self.base = base
        self.store = store
        self.defaultPolicy = defaultPolicy
        self.now = now
    }

    // MARK: Streams of snapshots

    public func topGrossingMovies(year: Int, policy: CachePolicy) -> AsyncThrowingStream<MovieSnapshot<[Movie]>, any Error> {
        listSnapshots(.topGrossing(year: year), policy: policy) { [base] in try await base.topGrossingMovies(year: year) }
    }

    public func topRatedMovies(year: Int, policy: CachePolicy) -> AsyncThrowingStream<MovieSnapshot<[Movie]>, any Error> {
        listSnapshots(.topRated(year: year), policy: policy) { [base] in try await base.topRatedMovies(year: year) }
    }

    public func movie(id: Int, policy: CachePolicy) -> AsyncThrowingStream<MovieSnapshot<Movie>, any Error> {
        let store = self.store
        return SnapshotStream(
            policy: policy,
            now: now,
            emptyValue: nil,
            what: "movie \(id)",
            read: { try await store.movie(id: id) },
            fetch: { [base] in try await base.movie(id: id) },
            save: { movie, date in try await store.saveMovies([movie], fetchedAt: date) }
        ).makeStream()
    }

    // MARK: Final answers

    /// The last snapshot of ``topGrossingMovies(year:policy:)``; a network failure after a stored
    /// answer is reported in the snapshot's `networkError`.
    public func topGrossingMovies(year: Int, policy: CachePolicy) async throws -> MovieSnapshot<[Movie]> {
        try await Self.finalSnapshot(of: topGrossingMovies(year: year, policy: policy))
    }

    public func topRatedMovies(year: Int, policy: CachePolicy) async throws -> MovieSnapshot<[Movie]> {
        try await Self.finalSnapshot(of: topRatedMovies(year: year, policy: policy))
    }

    public func movie(id: Int, policy: CachePolicy) async throws -> MovieSnapshot<Movie> {
        try await Self.finalSnapshot(of: movie(id: id, policy: policy))
    }

    // MARK: MovieService

    public func movie(id: Int) async throws -> Movie {
        try await movie(id: id, policy: defaultPolicy).value
    }

    public func topGrossingMovies(year: Int) async throws -> [Movie] {
        try await topGrossingMovies(year: year, policy: defaultPolicy).value
    }

    public func topRatedMovies(year: Int) async throws -> [Movie] {
        try await topRatedMovies(year: year, policy: defaultPolicy).value
    }

    // MARK: Observation

    /// The stored top grossing movies of `year` now and after every change: the Realm notification of the original.
    public func observeTopGrossing(year: Int) -> AsyncThrowingStream<StoredValue<[Movie]>?, any Error> {
        store.observeList(.topGrossing(year: year))
    }

    public func observeTopRated(year: Int) -> AsyncThrowingStream<StoredValue<[Movie]>?, any Error> {
        store.observeList(.topRated(year: year))
    }

    public func observeMovie(id: Int) -> AsyncThrowingStream<StoredValue<Movie>?, any Error> {
        store.observeMovie(id: id)
    }

    // MARK: Helpers

    private func listSnapshots(
        _ query: ListQuery,
        policy: CachePolicy,
        fetch: @escaping @Sendable () async throws -> [Movie]
    ) -> AsyncThrowingStream<MovieSnapshot<[Movie]>, any Error> {
        let store = self.store
        return SnapshotStream(
            policy: policy,
            now: now,
            emptyValue: [],
            what: query.description,
            read: { try await store.list(query) },
            fetch: fetch,
            save: { movies, date in try await store.saveList(movies, for: query, fetchedAt: date) }
        ).makeStream()
    }

    private static func finalSnapshot<Value>(of stream: AsyncThrowingStream<MovieSnapshot<Value>, any Error>) async throws -> MovieSnapshot<Value> {
        var last: MovieSnapshot<Value>?
        do {
            for try await snapshot in stream { last = snapshot }
        } catch {
            guard var stored = last, !(error is CancellationError) else { throw error }
            stored.networkError = error
            return stored
        }
        guard let last else { throw CancellationError() }
        return last
    }
}
