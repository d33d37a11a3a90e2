import HummingbirdCore
import NIOConcurrencyHelpers
import NIOCore

/// The server's open connections, and which of them are kept alive with nothing to do: at the
/// connection cap those are closed, oldest idle first, to admit new clients, as nginx reuses its
/// kept-alive connections when it runs out. A connection reading or answering a request is never
/// among them.
final class IdleConnections: Sendable {
    /// Closes its connection on the connection's event loop if it is still idle there, and says
    /// whether it did.
    typealias CloseIfIdle = @Sendable () -> EventLoopFuture<Bool>

    private struct State {
        var open = 0
        var nextOrder: UInt64 = 0
        /// Idle connections by their id, each with when it became idle (an order, oldest lowest).
        var idle: [ObjectIdentifier: (order: UInt64, close: CloseIfIdle)] = [:]
    }

    let maximum: Int
    private let state = NIOLockedValueBox(State())

    init(maximum: Int) {
        self.maximum = maximum
    }

    var isFull: Bool { state.withLockedValue { $0.open >= maximum } }

    func opened() {
        let full = state.withLockedValue { state in
            state.open += 1
            return state.open >= maximum
        }
        if full { closeOldestIdle() }
    }

    func closed() {
        state.withLockedValue { $0.open -= 1 }
    }

    /// `connection` answered everything it read and waits for the next request.
    func becameIdle(_ connection: ObjectIdentifier, close: @escaping CloseIfIdle) {
        state.withLockedValue { state in
            state.nextOrder += 1
            state.idle[connection] = (state.nextOrder, close)
        }
    }

    /// `connection` began a request, or closed.
    func becameBusy(_ connection: ObjectIdentifier) {
        _ = state.withLockedValue { state in state.idle.removeValue(forKey: connection) }
    }

    /// Closes the idle connection that has been idle longest, if any; one that turned busy
    /// meanwhile is skipped for the next.
    func closeOldestIdle() {
        let candidate = state.withLockedValue { state -> CloseIfIdle? in
            guard let oldest = state.idle.min(by: { $0.value.order < $1.value.order }) else { return nil }
            state.idle.removeValue(forKey: oldest.key)
            return oldest.value.close
        }
        guard let candidate else { return }
        candidate().whenSuccess { [self] closed in
            if !closed { closeOldestIdle() }
        }
    }
}

/// Hummingbird's connection cap, backed by ``IdleConnections``: it stops accepting at the cap, and
/// at the cap it closes the oldest idle kept-alive connection to make room.
struct CappedConnections: AvailableConnectionsDelegate {
    let connections: IdleConnections

    mutating func connectionOpened() {
        connections.opened()
    }

    mutating func connectionClosed() {
        connections.closed()
    }

    func isAcceptingNewConnections() -> Bool {
        !connections.isFull
    }
}
