import NIOConcurrencyHelpers

/// Whether the server should be sent new requests: not once it has begun to shut down, and not
/// while its storage does not answer.
public final class Readiness: Sendable {
    private let draining = NIOLockedValueBox(false)

    public init() {}

    /// The server is shutting down: from now on it reports itself not ready.
    public func beginDraining() {
        draining.withLockedValue { $0 = true }
    }

    public var isDraining: Bool { draining.withLockedValue { $0 } }
}
