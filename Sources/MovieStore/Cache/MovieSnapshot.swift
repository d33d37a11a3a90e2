import Foundation

/// One answer of a ``CachedMovieService`` call: the value, where it came from, and how old it is.
/// `NetworkFailure` is the base service's error type: why the network could not give a fresher value.
public struct MovieSnapshot<Value: Sendable, NetworkFailure: Error>: Sendable {
    /// Where a snapshot's value came from.
    public enum Source: Sendable, Hashable {
        /// The answer the server gave, as it was stored.
        case store
        /// The server's answer, just now.
        case network
        /// Not the server's answer: made from `records` stored values (a list of stored movies of
        /// a year, in the contract's order) because nothing else could be shown.
        case derived(records: Int)
        /// Not the server's answer: the stored movies of the API that match a search, found
        /// among `records` stored movies, because the server could not be asked.
        case searched(records: Int)
    }

    public var value: Value
    public var source: Source
    /// When the network gave this value; `nil` for the empty answer of an empty store.
    public var fetchedAt: Date?
    /// Why the network could not give a fresher value, when it failed; for a network answer, why
    /// it stopped before its end (``isIncomplete``).
    public var networkError: NetworkFailure?
    /// Why a fresh value could not be stored (it was still returned).
    public var storeError: StoreError?
    /// Whether the network's answer was `304 Not Modified`: the stored value is current, and was
    /// not sent or written again. The source is then ``Source/network`` and `fetchedAt` now.
    public var revalidated: Bool

    public init(
        value: Value, source: Source, fetchedAt: Date?,
        networkError: NetworkFailure? = nil, storeError: StoreError? = nil, revalidated: Bool = false
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

    /// The network's answer, cut short by a failure: the pages read before it.
    public var isIncomplete: Bool { source == .network && networkError != nil }
}
