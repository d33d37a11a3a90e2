import Foundation
import Logging
import Movies

/// A ``MovieService`` decorator that keeps every answer of its base service in a ``MovieStore``,
/// under the base's API, and answers from it by a ``CachePolicy``: offline first.
///
/// The base can be any `MovieService`; this type never knows which. When the base is a
/// ``RevalidatingMovieService``, a stored answer with an entity tag is revalidated: an unchanged
/// one costs a `304` and no write but its age. A network answer replaces
/// the stored one in one transaction; a failed call never removes or changes stored data. A list
/// the server never gave is, when the network cannot answer, derived from the API's stored movies
/// of that year and marked ``MovieSnapshot/Source/derived(records:)``; it is never stored.
public final class CachedMovieService: MovieService {
    public let base: any MovieService
    public let store: MovieStore
    /// The API whose answers the base gives: the only data this service reads or writes.
    public let api: MovieStore.APIKey
    /// The policy of the plain `MovieService` calls.
    public let defaultPolicy: CachePolicy
    private let now: @Sendable () -> Date
    /// Logs, at `info`, every answer given from the store.
    private let logger: Logger

    public init(
        base: any MovieService,
        store: MovieStore,
        api: MovieStore.APIKey,
        defaultPolicy: CachePolicy = .networkElseCache,
        now: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "MovieStore.cache", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.base = base
        self.store = store
        self.api = api
        self.defaultPolicy = defaultPolicy
        self.now = now
        self.logger = logger
    }

    // MARK: Streams of snapshots

    public func topGrossingMovies(year: Int, policy: CachePolicy) -> AsyncThrowingStream<MovieSnapshot<[Movie]>, any Error> {
        listSnapshots(.topGrossing(year: year), policy: policy, fetch: ask(
            conditionally: { try await $0.topGrossingMovies(year: year, ifNoneMatch: $1) },
            plainly: { try await $0.topGrossingMovies(year: year) }
        ))
    }

    public func topRatedMovies(year: Int, policy: CachePolicy) -> AsyncThrowingStream<MovieSnapshot<[Movie]>, any Error> {
        listSnapshots(.topRated(year: year), policy: policy, fetch: ask(
            conditionally: { try await $0.topRatedMovies(year: year, ifNoneMatch: $1) },
            plainly: { try await $0.topRatedMovies(year: year) }
        ))
    }

    public func movie(id: Int, policy: CachePolicy) -> AsyncThrowingStream<MovieSnapshot<Movie>, any Error> {
        let store = self.store, api = self.api
        return PolicyRun(
            policy: policy,
            now: now,
            emptyValue: nil,
            what: "movie \(id)",
            read: { try await store.movie(id: id, api: api) },
            fetch: ask(conditionally: { try await $0.movie(id: id, ifNoneMatch: $1) }, plainly: { try await $0.movie(id: id) }),
            save: { movie, date, freshness throws(StoreError) in
                try await store.saveMovies([movie], api: api, fetchedAt: date, freshness: freshness)
            },
            revalidate: { entityTag, date, freshness throws(StoreError) in
                try await store.revalidateMovie(id: id, api: api, entityTag: entityTag, fetchedAt: date, freshness: freshness)
            },
            derive: nil,
            logger: logger
        ).makeStream()
    }

    // MARK: MovieService

    public func movie(id: Int) async throws -> Movie {
        try await MovieSnapshot.last(of: movie(id: id, policy: defaultPolicy)).value
    }

    public func topGrossingMovies(year: Int) async throws -> [Movie] {
        try await MovieSnapshot.last(of: topGrossingMovies(year: year, policy: defaultPolicy)).value
    }

    public func topRatedMovies(year: Int) async throws -> [Movie] {
        try await MovieSnapshot.last(of: topRatedMovies(year: year, policy: defaultPolicy)).value
    }

    // MARK: Observation

    /// The stored top grossing movies of `year` now and after every change: the Realm notification of the original.
    public func observeTopGrossing(year: Int) -> AsyncThrowingStream<StoredValue<[Movie]>?, any Error> {
        store.observeList(.topGrossing(year: year), api: api)
    }

    public func observeTopRated(year: Int) -> AsyncThrowingStream<StoredValue<[Movie]>?, any Error> {
        store.observeList(.topRated(year: year), api: api)
    }

    public func relayWritesOfOtherProcesses() async throws {
        try await store.relayWritesOfOtherProcesses()
    }

    public func observeMovie(id: Int) -> AsyncThrowingStream<StoredValue<Movie>?, any Error> {
        store.observeMovie(id: id, api: api)
    }

    // MARK: Helpers

    /// Asks the base with the stored answer's entity tag when it can revalidate, plainly when it cannot.
    private func ask<Value: Sendable>(
        conditionally: @escaping @Sendable (any RevalidatingMovieService, String?) async throws -> Revalidation<Value>,
        plainly: @escaping @Sendable (any MovieService) async throws -> Value
    ) -> @Sendable (String?) async throws -> Revalidation<Value> {
        let base = self.base
        return { entityTag in
            if let revalidating = base as? any RevalidatingMovieService { return try await conditionally(revalidating, entityTag) }
            return .modified(try await plainly(base), .unknown)
        }
    }

    private func listSnapshots(
        _ query: ListQuery,
        policy: CachePolicy,
        fetch: @escaping @Sendable (_ ifNoneMatch: String?) async throws -> Revalidation<[Movie]>
    ) -> AsyncThrowingStream<MovieSnapshot<[Movie]>, any Error> {
        let store = self.store, api = self.api
        return PolicyRun(
            policy: policy,
            now: now,
            emptyValue: [],
            what: query.description,
            read: { try await store.list(query, api: api) },
            fetch: fetch,
            save: { movies, date, freshness throws(StoreError) in
                try await store.saveList(movies, for: query, api: api, fetchedAt: date, freshness: freshness)
            },
            revalidate: { entityTag, date, freshness throws(StoreError) in
                try await store.revalidateList(query, api: api, entityTag: entityTag, fetchedAt: date, freshness: freshness)
            },
            derive: { try await store.derivedList(query, api: api) },
            logger: logger
        ).makeStream()
    }
}
