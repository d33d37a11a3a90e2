import Foundation

/// One answer of a ``CachedMovieService`` call: the value, where it came from, and how old it is.
public struct MovieSnapshot<Value: Sendable>: Sendable {
    /// Where a snapshot's value came from.
    public enum Source: Sendable, Hashable {
        case store
        case network
    }

    public var value: Value
    public var source: Source
    /// When the network gave this value; `nil` for the empty answer of an empty store.
    public var fetchedAt: Date?
    /// Why the network could not give a fresher value, when it failed.
    public var networkError: (any Error)?
    /// Why a fresh value could not be stored (it was still returned).
    public var storeError: StoreError?

    public init(value: Value, source: Source, fetchedAt: Date?, networkError: (any Error)? = nil, storeError: StoreError? = nil) {
        self.value = value
        self.source = source
        self.fetchedAt = fetchedAt
        self.networkError = networkError
        self.storeError = storeError
    }

    /// A stored value shown because the network failed.
    public var isStale: Bool { source == .store && networkError != nil }
}
