import Foundation

/// One answer of a ``CachedMovieService`` call: the value, where it came from, and how old it is.
public struct MovieSnapshot<Value: Sendable>: Sendable {
    /// Where a snapshot's value came from.
    public enum Source: Sendable, Hashable {
        /// The answer the server gave, as it was stored.
        case store
        /// The server's answer, just now.
        case network
        /// Not the server's answer: made from `records` stored values (a list of stored movies of
        /// a year, in the contract's order) because nothing else could be shown.
        case derived(records: Int)
    }

    public var value: Value
    public var source: Source
    /// When the network gave this value; `nil` for the empty answer of an empty store.
    public var fetchedAt: Date?
    /// Why the network could not give a fresher value, when it failed.
    public var networkError: (any Error)?
    /// Why a fresh value could not be stored (it was still returned).
    public var storeError: StoreError?
    /// Whether the network's answer was `304 Not Modified`: the stored value is current, and was
    /// not sent or written again. The source is then ``Source/network`` and `fetchedAt` now.
    public var revalidated: Bool

    public init(
        value: Value, source: Source, fetchedAt: Date?,
        networkError: (any Error)? = nil, storeError: StoreError? = nil, revalidated: Bool = false
    ) {
        self.value = value
        self.source = source
        self.fetchedAt = fetchedAt
        self.networkError = networkError
        self.storeError = storeError
        self.revalidated = revalidated
    }

    /// A stored or derived value shown because the network failed.
    public var isStale: Bool { source != .network && networkError != nil }
}

extension MovieSnapshot {
    /// The answer a call ends with: the last snapshot of `stream`. When the network fails after a
    /// stored answer was given (`cacheThenNetwork`), that answer is returned with the error in its
    /// ``networkError``; when nothing was answered, or only the empty answer of an empty store,
    /// the error is thrown. `each` sees every snapshot as it arrives and `failure` the error the
    /// stream ended with, for callers that show the steps (the app's trace).
    public static func last(
        of stream: AsyncThrowingStream<MovieSnapshot<Value>, any Error>,
        each: (MovieSnapshot<Value>) -> Void = { _ in },
        failure: (any Error) -> Void = { _ in }
    ) async throws -> MovieSnapshot<Value> {
        var last: MovieSnapshot<Value>?
        do {
            for try await snapshot in stream {
                each(snapshot)
                last = snapshot
            }
        } catch {
            failure(error)
            return try answer(last: last, error: error)
        }
        guard let last else { throw CancellationError() }
        return last
    }

    /// A stored answer given before a network failure, with that failure; the error when nothing
    /// was answered but the empty answer of an empty store.
    private static func answer(last: MovieSnapshot<Value>?, error: any Error) throws -> MovieSnapshot<Value> {
        guard var last, last.fetchedAt != nil, !(error is CancellationError) else { throw error }
        if last.networkError == nil { last.networkError = error }
        return last
    }
}
