import Foundation
import Logging
import MovieContract
import Movies

/// A `MovieService` decorator that keeps every answer of its base service in a ``MovieStore``,
/// under the base's API, and answers from it by a ``CachePolicy``: offline first.
///
/// The base can be any `MovieService`; its failures keep their type: a snapshot's
/// ``MovieSnapshot/networkError`` is a `Base.Failure`, and a call that ends without an answer
/// throws one ``CacheFailure`` (the network's, the store's, or "nothing stored"). A stored
/// answer with an entity tag is revalidated: an unchanged one costs a `304` and no write but its
/// age. A network answer replaces the stored one in one transaction; a failed call never removes
/// or changes stored data. A list the server never gave is, when the network cannot answer,
/// derived from the API's stored movies of that year and marked
/// ``MovieSnapshot/Source/derived(records:)``; it is never stored.
public final class CachedMovieService<Base: MovieService>: MovieService {
    public typealias Failure = CacheFailure<Base.Failure>
    public typealias Snapshot<Value: Sendable> = MovieSnapshot<Value, Base.Failure>

    public let base: Base
    public let store: MovieStore
    /// The API whose answers the base gives: the only data this service reads or writes.
    public let api: MovieStore.APIKey
    /// The policy of the plain `MovieService` calls.
    public let defaultPolicy: CachePolicy
    private let now: @Sendable () -> Date
    /// Logs, at `info`, every answer given from the store.
    private let logger: Logger

    public init(
        base: Base,
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

    // MARK: Answers by policy

    /// The movies of `list` for `year` by `policy`; `each` sees every snapshot as it is made
    /// (two under `cacheThenNetwork`: the stored list, then the network's).
    public func movies(
        _ list: MovieList, year: Int, policy: CachePolicy,
        each: (Snapshot<[Movie]>) -> Void = { _ in }
    ) async throws(Failure) -> Snapshot<[Movie]> {
        let query = ListQuery(list, year: year)
        let store = self.store, api = self.api, base = self.base
        return try await PolicyRun(
            policy: policy,
            now: now,
            emptyValue: [],
            what: query.description,
            read: { () throws(StoreError) in try await store.list(query, api: api) },
            fetch: { entityTag throws(Base.Failure) in try await base.movies(list, year: year, ifNoneMatch: entityTag) },
            save: { movies, date, freshness throws(StoreError) in
                try await store.saveList(movies, for: query, api: api, fetchedAt: date, freshness: freshness)
            },
            revalidate: { entityTag, date, freshness throws(StoreError) in
                try await store.revalidateList(query, api: api, entityTag: entityTag, fetchedAt: date, freshness: freshness)
            },
            derive: { () throws(StoreError) in try await store.derivedList(query, api: api) },
            isUnavailable: { base.isUnavailable($0) },
            logger: logger
        ).run(emit: each)
    }

    /// The movie with the given id by `policy`; `each` sees every snapshot as it is made.
    public func movie(
        id: Int, policy: CachePolicy,
        each: (Snapshot<Movie>) -> Void = { _ in }
    ) async throws(Failure) -> Snapshot<Movie> {
        let store = self.store, api = self.api, base = self.base
        return try await PolicyRun(
            policy: policy,
            now: now,
            emptyValue: nil,
            what: "movie \(id)",
            read: { () throws(StoreError) in try await store.movie(id: id, api: api) },
            fetch: { entityTag throws(Base.Failure) in try await base.movie(id: id, ifNoneMatch: entityTag) },
            save: { movie, date, freshness throws(StoreError) in
                try await store.saveMovies([movie], api: api, fetchedAt: date, freshness: freshness)
            },
            revalidate: { entityTag, date, freshness throws(StoreError) in
                try await store.revalidateMovie(id: id, api: api, entityTag: entityTag, fetchedAt: date, freshness: freshness)
            },
            derive: nil,
            isUnavailable: { base.isUnavailable($0) },
            logger: logger
        ).run(emit: each)
    }

    /// One page of `request` from the network, its movies stored; or, when the network cannot
    /// answer (or under `cacheOnly`), the API's stored movies that match it, searched by the same
    /// rules, as a ``MovieSnapshot/Source/searched(records:)`` answer. With `all`, every page is
    /// asked for (every match, offline), each page stored as it arrives. A later page
    /// (`request.cursor`) is never answered offline. A failure that is the server's answer (a 4xx)
    /// is never hidden by the store: on the first page it is thrown; after pages were read, those
    /// pages are the answer, with the failure in ``MovieSnapshot/networkError`` and the cursor
    /// that failed in `next`.
    public func search(_ request: MovieSearchRequest, all: Bool = false, policy: CachePolicy) async throws(Failure) -> Snapshot<MovieSearchPage> {
        if policy == .cacheOnly { return try await searchStore(request, all: all, networkError: nil) }
        var page: MovieSearchPage
        do throws(Base.Failure) {
            page = try await base.search(request)
        } catch {
            if Task.isCancelled { throw .cancelled }
            guard policy != .networkOnly, request.cursor == nil, base.isUnavailable(error) || base.hasNoSearch(error) else { throw .network(error) }
            return try await searchStore(request, all: all, networkError: error)
        }
        // A walk stores each page while it asks for the next: the store's work (and the
        // eviction a budget asks for) runs beside the network's instead of after it. Pages are
        // stored in order, one at a time, and every page read is stored before this returns.
        var saving = PageSaving { movies in await self.saveFound(movies) }
        await saving.start(page.movies)
        var next = request
        while all, let cursor = page.next {
            next.cursor = cursor
            do throws(Base.Failure) {
                let more = try await base.search(next)
                await saving.start(more.movies)
                // Appended in place: a new array per page made a walk of n movies copy n²/200 of them.
                page.movies.append(contentsOf: more.movies)
                page.next = more.next
            } catch {
                let storeError = await saving.finish()
                if Task.isCancelled { throw .cancelled }
                if policy != .networkOnly, base.isUnavailable(error) {
                    return try await searchStore(request, all: all, networkError: error)
                }
                return MovieSnapshot(value: page, source: .network, fetchedAt: now(), networkError: error, storeError: storeError)
            }
        }
        let storeError = await saving.finish()
        return MovieSnapshot(value: page, source: .network, fetchedAt: now(), storeError: storeError)
    }

    /// Stores the movies a search found, as they arrive, so a walk cut short keeps what it read.
    private func saveFound(_ movies: [Movie]) async -> StoreError? {
        do {
            try await store.saveMovies(movies, api: api, fetchedAt: now())
            return nil
        } catch {
            return error
        }
    }

    private func searchStore(_ request: MovieSearchRequest, all: Bool, networkError: Base.Failure?) async throws(Failure) -> Snapshot<MovieSearchPage> {
        // One match past the page says whether more are stored.
        let found: (movies: [Movie], searched: Int)
        do { found = try await store.search(request, limit: all ? nil : request.limit + 1, api: api) } catch { throw .store(error) }
        let page = all ? found.movies : Array(found.movies.prefix(request.limit))
        logger.info("searched \(found.searched) stored movies offline, \(page.count) shown")
        return MovieSnapshot(
            value: MovieSearchPage(movies: page, next: nil, hasMore: page.count < found.movies.count),
            source: .searched(records: found.searched), fetchedAt: nil, networkError: networkError
        )
    }

    // MARK: MovieService

    public func search(_ request: MovieSearchRequest) async throws(Failure) -> MovieSearchPage {
        try await search(request, policy: defaultPolicy).value
    }

    public func movie(id: Int) async throws(Failure) -> Movie {
        try await movie(id: id, policy: defaultPolicy).value
    }

    public func movies(_ list: MovieList, year: Int) async throws(Failure) -> [Movie] {
        try await movies(list, year: year, policy: defaultPolicy).value
    }

    // MARK: Observation

    /// The stored list now and after every change: the Realm notification of the original.
    public func observe(_ list: MovieList, year: Int) -> AsyncThrowingStream<StoredValue<[Movie]>?, any Error> {
        store.observeList(ListQuery(list, year: year), api: api)
    }

    /// The stored movie now and after every change.
    public func observeMovie(id: Int) -> AsyncThrowingStream<StoredValue<Movie>?, any Error> {
        store.observeMovie(id: id, api: api)
    }

    /// Makes the observations see what other processes store, until cancelled
    /// (``MovieStore/relayWritesOfOtherProcesses(every:)``).
    public func relayWritesOfOtherProcesses() async throws {
        try await store.relayWritesOfOtherProcesses()
    }
}
