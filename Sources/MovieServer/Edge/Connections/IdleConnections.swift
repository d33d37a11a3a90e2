import HummingbirdCore
import NIOConcurrencyHelpers
import NIOCore
import Synchronization

/// The server's open connections, and which of them may be closed to admit new clients at the
/// connection cap: first those that have sent no whole request head since they opened, once they
/// have had ``silenceAllowedAtCap`` (a client that opens sockets and sends nothing, slowloris),
/// then the kept-alive ones with nothing to do, oldest idle first, as nginx reuses its kept-alive
/// connections when it runs out. A connection reading or answering a request is never closed.
final class IdleConnections: Sendable {
    /// Closes its connection on the connection's event loop if it is still idle (or still silent)
    /// there, and says whether it did.
    typealias CloseIfIdle = @Sendable () -> EventLoopFuture<Bool>

    /// How long a new connection may stay without a whole request head while the server is at its
    /// cap, before it is closed to admit another client.
    static let silenceAllowedAtCap = TimeAmount.seconds(1)

    private struct State {
        var nextOrder: UInt64 = 0
        /// Idle connections by their id, each with when it became idle (an order, oldest lowest).
        var idle: [ObjectIdentifier: (order: UInt64, close: CloseIfIdle)] = [:]
        /// Connections that have sent no whole request head yet, with when they opened.
        var silent: [ObjectIdentifier: (since: NIODeadline, eventLoop: any EventLoop, close: CloseIfIdle)] = [:]
        /// Whether a later look for silent connections to close is scheduled.
        var recheckScheduled = false
    }

    let maximum: Int
    private let silenceAllowed: TimeAmount
    private let state = NIOLockedValueBox(State())
    /// Open connections: an atomic, as each answer asks whether the server is at its cap.
    private let open = Atomic(0)

    init(maximum: Int, silenceAllowed: TimeAmount = IdleConnections.silenceAllowedAtCap) {
        self.maximum = maximum
        self.silenceAllowed = silenceAllowed
    }

    var isFull: Bool { open.load(ordering: .relaxed) >= maximum }

    func opened() {
        let now = open.add(1, ordering: .relaxed).newValue
        if now >= maximum { makeRoom() }
    }

    /// `connection` opened at `since` and has sent no whole request head.
    func openedSilent(_ connection: ObjectIdentifier, since: NIODeadline, eventLoop: any EventLoop, close: @escaping CloseIfIdle) {
        state.withLockedValue { $0.silent[connection] = (since, eventLoop, close) }
    }

    /// `connection` sent its first request head, or closed.
    func spoke(_ connection: ObjectIdentifier) {
        _ = state.withLockedValue { $0.silent.removeValue(forKey: connection) }
    }

    /// At the cap: closes as many connections as it takes to admit one more (NIO may have
    /// accepted a few past the cap in one read): those silent longest that have had their time
    /// first, then the oldest idle ones; when that is not enough, looks again once the oldest
    /// silent one's time is up.
    func makeRoom() {
        let now = NIODeadline.now()
        let open = open.load(ordering: .relaxed)
        let (silent, missing, recheck) = state.withLockedValue { state -> ([CloseIfIdle], Int, (NIODeadline, any EventLoop)?) in
            let needed = open - maximum + 1
            guard needed > 0 else { return ([], 0, nil) }
            let byAge = state.silent.sorted { $0.value.since < $1.value.since }
            let due = byAge.prefix { $0.value.since + silenceAllowed <= now }.prefix(needed)
            for entry in due { state.silent.removeValue(forKey: entry.key) }
            var recheck: (NIODeadline, any EventLoop)?
            if due.count < needed, let young = state.silent.min(by: { $0.value.since < $1.value.since }), !state.recheckScheduled {
                state.recheckScheduled = true
                recheck = (young.value.since + silenceAllowed, young.value.eventLoop)
            }
            return (due.map(\.value.close), needed - due.count, recheck)
        }
        for close in silent {
            close().whenSuccess { [self] closed in
                if !closed, isFull { makeRoom() }
            }
        }
        if let (deadline, eventLoop) = recheck {
            eventLoop.scheduleTask(deadline: deadline) { [self] in
                state.withLockedValue { $0.recheckScheduled = false }
                if isFull { makeRoom() }
            }
        }
        for _ in 0..<missing { closeOldestIdle() }
    }

    func closed() {
        open.subtract(1, ordering: .relaxed)
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
