import Foundation
import Movies

/// A value read from the store, with when the network gave it and what the server said about
/// keeping it.
public struct StoredValue<Value: Sendable>: Sendable {
    public var value: Value
    public var fetchedAt: Date
    /// The entity tag the server gave with the value; `nil` when it gave none.
    public var entityTag: String?
    /// How long the server said the value stays fresh; `nil` when it did not say.
    public var maxAge: Duration?

    public init(value: Value, fetchedAt: Date, entityTag: String? = nil, maxAge: Duration? = nil) {
        self.value = value
        self.fetchedAt = fetchedAt
        self.entityTag = entityTag
        self.maxAge = maxAge
    }
}

extension StoredValue: Equatable where Value: Equatable {}
