import NIOConcurrencyHelpers

/// The connections of this instance that are event streams, from the stream's head until the
/// connection closes: what a graceful shutdown waits for. Hummingbird's shutdown waits for the
/// connections it runs a task for, and a stream's connection holds none (``FirstRequestSwitch``),
/// so without this a server would say it stopped while the streams it ended were still writing
/// their last bytes.
final class StreamConnections: Sendable {
    private let open = NIOLockedValueBox(0)
    private let allClosed = WakeSignal()

    /// How many are open.
    var count: Int { open.withLockedValue { $0 } }

    func opened() {
        open.withLockedValue { $0 += 1 }
    }

    func closed() {
        let remaining = open.withLockedValue { open in
            open -= 1
            return open
        }
        if remaining == 0 { allClosed.signal() }
    }

    /// Returns once every stream connection has closed (true), or after `limit` (false).
    func waitUntilAllClosed(atMost limit: Duration) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while count > 0 {
            let left = deadline - .now
            guard left > .zero else { return false }
            await allClosed.wait(atMost: left)
        }
        return true
    }
}
