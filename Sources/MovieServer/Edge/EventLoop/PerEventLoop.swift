import NIOConcurrencyHelpers
import NIOCore

/// One value for each event loop that asks, made on its first ask and kept: what an event loop
/// changes alone (its connections, its request counts) without contending with the other cores.
/// Asking takes a lock, so callers ask once (a connection when it opens, a handler when it is
/// added), not per request.
final class PerEventLoop<Value: Sendable>: Sendable {
    private let values = NIOLockedValueBox<[ObjectIdentifier: Value]>([:])
    private let make: @Sendable (any EventLoop) -> Value

    init(making make: @escaping @Sendable (any EventLoop) -> Value) {
        self.make = make
    }

    /// The value of `eventLoop`, made now if it has none.
    func value(for eventLoop: any EventLoop) -> Value {
        values.withLockedValue { values in
            if let known = values[ObjectIdentifier(eventLoop)] { return known }
            let made = make(eventLoop)
            values[ObjectIdentifier(eventLoop)] = made
            return made
        }
    }

    /// Every value made so far, in no particular order.
    var all: [Value] {
        values.withLockedValue { Array($0.values) }
    }
}
