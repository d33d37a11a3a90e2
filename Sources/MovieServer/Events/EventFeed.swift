import Foundation
import Logging
import NIOConcurrencyHelpers

/// Hands every event committed to the log to the streams open on this instance, and has a
/// person's streams check their sign-in when the log says one of theirs ended. One task reads
/// the log after the last sequence it handed on, whenever it is woken: by a write through this
/// instance, by PostgreSQL's `NOTIFY` from any instance, or by a poll (another process's import
/// on SQLite), and gives each stream's sink the events it may see. The sink writes them on its
/// connection's event loop and bounds what waits there. The task ends when the feed is released.
public final class EventFeed: Sendable {
    typealias Refusal = StreamShares.Refusal
    typealias Reader = StreamShares.Reader

    private struct Subscriber {
        var holder: StreamShares.Holder
        var sink: any FeedSink
        var owner: String? { holder.reader.owner }
    }

    private struct State {
        var subscribers: [UInt64: Subscriber] = [:]
        var shares: StreamShares
        var nextID: UInt64 = 0
        /// The last sequence handed on; `nil` until the log was first read.
        var lastSeen: Int64?
    }

    let storage: any EventStorage
    let settings: FeedSettings
    /// Called before a catalogue event is handed on: answers kept for the old catalogue go first,
    /// so a client the event wakes is never given them.
    private let catalogueChanged: @Sendable () -> Void
    private let logger: Logger
    private let state: NIOLockedValueBox<State>
    private let wake = WakeSignal()
    /// The connections that are streams, until they close: what a shutdown waits for.
    let connections = StreamConnections()

    init(
        storage: any EventStorage, settings: FeedSettings,
        catalogueChanged: @escaping @Sendable () -> Void = {}, logger: Logger
    ) {
        self.storage = storage
        self.settings = settings
        self.catalogueChanged = catalogueChanged
        self.logger = logger
        state = NIOLockedValueBox(State(shares: StreamShares(settings: settings)))
        let wake = self.wake, heartbeat = settings.heartbeat
        let isNotified = storage.onFeedNotification { [weak wake] in wake?.signal() }
        let pause = isNotified ? heartbeat : min(settings.pollInterval, heartbeat)
        Task { [weak self] in
            var lastHeartbeat = ContinuousClock.now, lastPrune: ContinuousClock.Instant?
            while true {
                let now = ContinuousClock.now
                let pruneDue = lastPrune.map { now - $0 > .seconds(60) } ?? true, heartbeatDue = now - lastHeartbeat >= heartbeat
                guard await self?.step(prune: pruneDue, heartbeat: heartbeatDue) != nil else { return }
                if pruneDue { lastPrune = now }
                if heartbeatDue { lastHeartbeat = now }
                await wake.wait(atMost: pause)
            }
        }
    }

    /// Asks the task to read the log now: a write through this instance just committed.
    func poke() { wake.signal() }

    /// How many streams are open.
    var streamCount: Int { state.withLockedValue { $0.subscribers.count } }

    /// Who holds the open streams.
    var shares: StreamShares { state.withLockedValue { $0.shares } }

    /// Opens a stream for `reader` at the client address `address` (``IPAddress/party``), if
    /// ``StreamShares`` gives it a place. Events committed from now on are given to `sink`; what
    /// came before is for the caller to read from the log.
    func subscribe(_ reader: Reader, from address: String, sink: any FeedSink) async throws -> UInt64 {
        if state.withLockedValue({ $0.lastSeen == nil }) {
            let latest = try await storage.eventLogBounds().latest
            state.withLockedValue { if $0.lastSeen == nil { $0.lastSeen = latest } }
        }
        return try state.withLockedValue { state throws(Refusal) -> UInt64 in
            let holder = StreamShares.Holder(reader: reader, address: address)
            try state.shares.take(holder)
            state.nextID += 1
            state.subscribers[state.nextID] = Subscriber(holder: holder, sink: sink)
            return state.nextID
        }
    }

    /// Closes a stream's subscription: its sink is given nothing more, and its place is free.
    func unsubscribe(_ id: UInt64) {
        state.withLockedValue { state in
            guard let subscriber = state.subscribers.removeValue(forKey: id) else { return }
            state.shares.release(subscriber.holder)
        }
    }

    private func step(prune: Bool, heartbeat: Bool) async {
        if prune { try? await storage.pruneEvents(writtenBefore: Date().addingTimeInterval(-settings.retention.seconds)) }
        await handOn()
        if heartbeat {
            for sink in state.withLockedValue({ $0.subscribers.values.map(\.sink) }) { sink.heartbeat() }
        }
    }

    /// Reads what the log holds after the last sequence handed on, and hands it on.
    private func handOn() async {
        guard var cursor = state.withLockedValue({ $0.lastSeen }) else { return }
        let page = 500
        while true {
            let events: [FeedEvent]
            do {
                events = try await storage.events(after: cursor, for: .everyone, limit: page)
            } catch {
                logger.warning("the event feed could not read the log: \(error)")
                return
            }
            guard let last = events.last else { return }
            noteCatalogueChanges(in: events)
            let hasCatalogueEvent = events.contains { $0.kind == .catalog }
            let signedOut = Set(events.filter { $0.kind == .signOut }.compactMap(\.owner))
            let (receivers, checked) = state.withLockedValue { state -> ([any FeedSink], [any FeedSink]) in
                state.lastSeen = last.sequence
                let subscribers = state.subscribers.values
                return (
                    subscribers.compactMap { subscriber in
                        hasCatalogueEvent || events.contains { $0.isVisible(to: subscriber.owner) } ? subscriber.sink : nil
                    },
                    subscribers.compactMap { subscriber in subscriber.owner.map(signedOut.contains) == true ? subscriber.sink : nil }
                )
            }
            for sink in receivers { sink.receive(events) }
            for sink in checked { sink.signInMayHaveEnded() }
            cursor = last.sequence
            if events.count < page { return }
        }
    }

    /// Lets the catalogue's kept answers go when `events` hold a catalogue event this feed has
    /// not handed on yet: called before they are written to any stream (by the feed, and by a
    /// stream catching up from the log, which may read an event before the feed does).
    func noteCatalogueChanges(in events: [FeedEvent]) {
        let handedOn = state.withLockedValue { $0.lastSeen } ?? .min
        if events.contains(where: { $0.kind == .catalog && $0.sequence > handedOn }) { catalogueChanged() }
    }
}

extension StreamShares.Reader {
    /// The watchlist owner a person's stream carries the events of; nil for an application.
    var owner: String? {
        if case let .person(owner) = self { owner } else { nil }
    }
}

extension Duration {
    /// The duration in seconds, with its fraction.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
