import Foundation

/// A value read from the store, with when the network gave it.
public struct StoredValue<Value: Sendable>: Sendable {
    public var value: Value
    public var fetchedAt: Date

    public init(value: Value, fetchedAt: Date) {
        self.value = value
        self.fetchedAt = fetchedAt
    }
}

extension StoredValue: Equatable where Value: Equatable {}
