import Foundation
import Logging
import NIOConcurrencyHelpers

/// Hands every event committed to the log to the streams open on this instance. One task reads
/// the log after the last sequence it handed on, whenever it is woken: by a write through this
/// instance, by PostgreSQL's `NOTIFY` from any instance, or by a poll (another process's import
/// on SQLite). Each stream has a bounded queue; one that overflows is ended, and its client
/// resumes from its cursor. The task ends when the feed is released.
public final class EventFeed: Sendable {
    /// What a stream receives.
    enum Item: Sendable {
        case event(FeedEvent)
        case heartbeat
    }

    /// Why a stream was not opened.
    enum Refusal: Error {
        /// The instance holds ``FeedSettings/maximumStreams``.
        case full
        /// The person holds ``FeedSettings/streamsPerPerson``.
        case personAtLimit
    }

    private struct Subscriber {
        var owner: String?
        var continuation: AsyncStream<Item>.Continuation
    }

    private struct State {
        var subscribers: [UInt64: Subscriber] = [:]
        var streamsByOwner: [String: Int] = [:]
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
    private let state = NIOLockedValueBox(State())
    private let wake = WakeSignal()

    init(
        storage: any EventStorage, settings: FeedSettings, notifications: (any FeedNotifying)?,
        catalogueChanged: @escaping @Sendable () -> Void = {}, logger: Logger
    ) {
        self.storage = storage
        self.settings = settings
        self.catalogueChanged = catalogueChanged
        self.logger = logger
        let wake = self.wake, heartbeat = settings.heartbeat, pause = notifications == nil ? min(settings.pollInterval, settings.heartbeat) : settings.heartbeat
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
        notifications?.onFeedNotification { [weak wake] in wake?.signal() }
    }

    /// Asks the task to read the log now: a write through this instance just committed.
    func poke() { wake.signal() }

    /// How many streams are open.
    var streamCount: Int { state.withLockedValue { $0.subscribers.count } }

    /// Opens a stream for a reader (`owner` nil: an application). Events committed from now on
    /// arrive on it; what came before is for the caller to read from the log.
    func subscribe(owner: String?) async throws -> (id: UInt64, items: AsyncStream<Item>) {
        if state.withLockedValue({ $0.lastSeen == nil }) {
            let latest = try await storage.eventLogBounds().latest
            state.withLockedValue { if $0.lastSeen == nil { $0.lastSeen = latest } }
        }
        let (items, continuation) = AsyncStream<Item>.makeStream(bufferingPolicy: .bufferingOldest(settings.queueCapacity))
        let id = try state.withLockedValue { state throws(Refusal) -> UInt64 in
            guard state.subscribers.count < settings.maximumStreams else { throw .full }
            if let owner {
                guard state.streamsByOwner[owner, default: 0] < settings.streamsPerPerson else { throw .personAtLimit }
                state.streamsByOwner[owner, default: 0] += 1
            }
            state.nextID += 1
            state.subscribers[state.nextID] = Subscriber(owner: owner, continuation: continuation)
            return state.nextID
        }
        return (id, items)
    }

    /// Closes a stream: its queue ends, and its place is free.
    func unsubscribe(_ id: UInt64) {
        let removed = state.withLockedValue { state -> Subscriber? in
            guard let subscriber = state.subscribers.removeValue(forKey: id) else { return nil }
            if let owner = subscriber.owner {
                state.streamsByOwner[owner, default: 1] -= 1
                if state.streamsByOwner[owner] == 0 { state.streamsByOwner[owner] = nil }
            }
            return subscriber
        }
        removed?.continuation.finish()
    }

    private func step(prune: Bool, heartbeat: Bool) async {
        if prune { try? await storage.pruneEvents(writtenBefore: Date().addingTimeInterval(-settings.retention.seconds)) }
        await handOn()
        if heartbeat { broadcast(.heartbeat) }
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
            let overflowed = state.withLockedValue { state -> [UInt64] in
                var overflowed: [UInt64] = []
                for event in events {
                    for (id, subscriber) in state.subscribers where event.isVisible(to: subscriber.owner) {
                        if case .dropped = subscriber.continuation.yield(.event(event)) { overflowed.append(id) }
                    }
                }
                state.lastSeen = last.sequence
                return overflowed
            }
            for id in Set(overflowed) { unsubscribe(id) }
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

    /// Gives every stream `item`; a stream whose queue is full is ended.
    private func broadcast(_ item: Item) {
        let overflowed = state.withLockedValue { state in
            state.subscribers.compactMap { id, subscriber -> UInt64? in
                if case .dropped = subscriber.continuation.yield(item) { return id }
                return nil
            }
        }
        for id in overflowed { unsubscribe(id) }
    }
}

/// Storage that is told of events written by other instances (PostgreSQL's `LISTEN`).
protocol FeedNotifying: Sendable {
    /// Calls `wake` each time another instance may have written events, from now on until the
    /// storage is closed.
    func onFeedNotification(_ wake: @escaping @Sendable () -> Void)
}

extension Duration {
    /// The duration in seconds, with its fraction.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
