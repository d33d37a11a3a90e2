import HummingbirdCore
import NIOConcurrencyHelpers
import NIOCore
import Synchronization

/// The server's open connections, and which of them may be closed to admit new clients at the
/// connection cap: first those that have sent no whole request head since they opened, once they
/// have had ``silenceAllowedAtCap`` (a client that opens sockets and sends nothing, slowloris),
/// then the kept-alive ones with nothing to do, oldest idle first, as nginx reuses its kept-alive
/// connections when it runs out. A connection reading or answering a request is never closed.
///
/// Each connection keeps its own standing (silent since, idle since) in its ``ConnectionGuard``,
/// on its event loop, where every request changes it without a lock. This registry is touched
/// when a connection opens and closes, and read only at the cap: each event loop is asked for its
/// connections' standings, one look at a time.
final class IdleConnections: Sendable {
    /// How long a new connection may stay without a whole request head while the server is at its
    /// cap, before it is closed to admit another client.
    static let silenceAllowedAtCap = TimeAmount.seconds(1)

    let maximum: Int
    private let silenceAllowed: TimeAmount
    private let loops = PerEventLoop { LoopConnections(eventLoop: $0) }
    /// Open connections: an atomic, as each answer asks whether the server is at its cap.
    private let open = Atomic(0)
    /// Connections chosen and being closed (they still count as open until they are).
    private let closing = Atomic(0)
    private let look = NIOLockedValueBox(LookState())

    /// Whether a look for connections to close runs, whether another is wanted after it, and
    /// whether a later one waits for a silent connection's time to be up.
    private struct LookState {
        var isRunning = false
        var isWantedAgain = false
        var recheckScheduled = false
    }

    init(maximum: Int, silenceAllowed: TimeAmount = IdleConnections.silenceAllowedAtCap) {
        self.maximum = maximum
        self.silenceAllowed = silenceAllowed
    }

    var isFull: Bool { open.load(ordering: .relaxed) >= maximum }

    func opened() {
        let now = open.add(1, ordering: .relaxed).newValue
        if now >= maximum { makeRoom() }
    }

    func closed() {
        open.subtract(1, ordering: .relaxed)
    }

    /// The connections on `eventLoop`, where a new connection joins (once a connection: a lock).
    func connections(on eventLoop: any EventLoop) -> LoopConnections {
        loops.value(for: eventLoop)
    }

    /// At the cap: closes as many connections as it takes to admit one more (NIO may have
    /// accepted a few past the cap in one read; those already being closed count as gone): those
    /// silent longest that have had their time first, then the oldest idle ones; when that is not
    /// enough, looks again once the oldest silent one's time is up. Calls while a look runs make
    /// one more look after it. A look costs a pass over the open connections' standings.
    func makeRoom() {
        let starts = look.withLockedValue { look in
            if look.isRunning {
                look.isWantedAgain = true
                return false
            }
            look.isRunning = true
            return true
        }
        if starts { lookForRoom() }
    }

    private func lookForRoom() {
        let needed = open.load(ordering: .relaxed) - closing.load(ordering: .relaxed) - maximum + 1
        let loops = loops.all
        guard needed > 0, let first = loops.first else { return lookEnded() }
        let now = NIODeadline.now()
        let standings = loops.map { connections in connections.eventLoop.submit { connections.standings() } }
        EventLoopFuture.whenAllSucceed(standings, on: first.eventLoop).whenComplete { [self] result in
            let all = (try? result.get())?.flatMap { $0 } ?? []
            let silent = all.filter { $0.silentSince != nil }
            let due = Self.oldest(silent.filter { $0.since + silenceAllowed <= now }, count: needed)
            let idle = Self.oldest(all.filter { $0.silentSince == nil }, count: needed - due.count)
            if due.count + idle.count < needed, let young = silent.map(\.since).filter({ $0 + silenceAllowed > now }).min() {
                recheck(at: young + silenceAllowed, on: first.eventLoop)
            }
            let closes = (due + idle).map { candidate in
                candidate.connections.eventLoop.submit { [self] in
                    closing.add(1, ordering: .relaxed)
                    let closes = candidate.connections.close(candidate) { [self] in closing.subtract(1, ordering: .relaxed) }
                    if !closes { closing.subtract(1, ordering: .relaxed) }
                    return closes
                }
            }
            // A candidate that turned busy meanwhile is not chased: its next answer at the cap
            // asks for a look again. One that began its next head meanwhile is silent from then,
            // and no answer will ask: the look is made again once such a one's time would be up.
            EventLoopFuture.whenAllComplete(closes, on: first.eventLoop).whenComplete { [self] results in
                let closed = (try? results.get())?.count { (try? $0.get()) == true } ?? 0
                if closed < closes.count {
                    recheck(at: .now() + silenceAllowed, on: first.eventLoop)
                }
                lookEnded()
            }
        }
    }

    /// The `count` standings that began first, oldest first: a pass per one when few are wanted
    /// (one, as a rule), a sort otherwise.
    private static func oldest(_ standings: [LoopConnections.Standing], count: Int) -> [LoopConnections.Standing] {
        guard count > 0, !standings.isEmpty else { return [] }
        guard count <= 4 else { return Array(standings.sorted { $0.since < $1.since }.prefix(count)) }
        var left = standings, chosen: [LoopConnections.Standing] = []
        while chosen.count < count, let index = left.indices.min(by: { left[$0].since < left[$1].since }) {
            chosen.append(left.remove(at: index))
        }
        return chosen
    }

    /// Runs the look wanted meanwhile (it ends at once if the server is no longer at its cap).
    private func lookEnded() {
        let again = look.withLockedValue { look in
            let again = look.isWantedAgain
            look.isWantedAgain = false
            look.isRunning = again
            return again
        }
        if again { lookForRoom() }
    }

    private func recheck(at deadline: NIODeadline, on eventLoop: any EventLoop) {
        let schedules = look.withLockedValue { look in
            defer { look.recheckScheduled = true }
            return !look.recheckScheduled
        }
        guard schedules else { return }
        eventLoop.scheduleTask(deadline: deadline) { [self] in
            look.withLockedValue { $0.recheckScheduled = false }
            if isFull { makeRoom() }
        }
    }
}

/// The open connections of one event loop, read and changed only on it.
final class LoopConnections: @unchecked Sendable {
    let eventLoop: any EventLoop
    private var members: [ObjectIdentifier: ConnectionGuard] = [:]

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Where a connection stands at a look: silent since its head began (or it opened), or idle
    /// since its last answer.
    struct Standing {
        let connections: LoopConnections
        let member: ObjectIdentifier
        let since: NIODeadline
        let silentSince: NIODeadline?
    }

    func join(_ member: ConnectionGuard) {
        eventLoop.preconditionInEventLoop()
        members[ObjectIdentifier(member)] = member
    }

    func leave(_ member: ConnectionGuard) {
        members.removeValue(forKey: ObjectIdentifier(member))
    }

    fileprivate func standings() -> [Standing] {
        members.compactMap { id, member in
            switch member.standing {
            case let .silent(since): Standing(connections: self, member: id, since: since, silentSince: since)
            case let .idle(since): Standing(connections: self, member: id, since: since, silentSince: nil)
            case nil: nil
            }
        }
    }

    /// Closes the connection if it still stands as it did at the look; says whether it does, and
    /// calls `closed` once it is closed.
    fileprivate func close(_ standing: Standing, closed: @escaping @Sendable () -> Void) -> Bool {
        guard let member = members[standing.member] else { return false }
        let expected: ConnectionGuard.Standing = standing.silentSince.map { .silent(since: $0) } ?? .idle(since: standing.since)
        return member.closeToMakeRoom(ifStill: expected, closed: closed)
    }
}

/// Hummingbird's connection cap, backed by ``IdleConnections``: it stops accepting at the cap, and
/// at the cap it closes silent connections that have had their time, then the oldest idle ones, to
/// make room.
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
