/// The answer to a conditional request: a new value, or word that the one held is still current.
public enum Revalidation<Value: Sendable>: Sendable {
    /// The server's answer, with what it said about keeping it.
    case modified(Value, Freshness)
    /// The value whose entity tag was sent is current (`304 Not Modified`); nothing was sent again.
    case notModified(Freshness)
}

extension Revalidation {
    /// The same answer with its value, if any, transformed.
    public func map<Other: Sendable>(_ transform: (Value) -> Other) -> Revalidation<Other> {
        switch self {
        case let .modified(value, freshness): .modified(transform(value), freshness)
        case let .notModified(freshness): .notModified(freshness)
        }
    }
}
