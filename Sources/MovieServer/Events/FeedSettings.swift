import Foundation

/// The limits and rhythms of the event feed (`GET /api/events`).
public struct FeedSettings: Sendable, Hashable {
    /// The most streams one instance holds open; past it a new one is answered `503`. Kept below
    /// the connection cap, so that streams never shut out the requests of the rest of the API.
    public var maximumStreams: Int
    /// The most streams one person (an account) may hold open at once on one instance; past it, `429`.
    public var streamsPerPerson: Int
    /// The most streams one client address (an IPv6 address by its /64) may hold open at once
    /// on one instance, whoever's tokens it uses; past it, `429`.
    public var streamsPerAddress: Int
    /// The most streams one client application may hold open with its own token (client
    /// credentials, no person) on one instance; past it, `429`. Applications together never hold
    /// more than half of ``maximumStreams``: the rest is kept for people.
    public var streamsPerApplication: Int
    /// How often an idle stream gets a comment line, so that proxies and clients know it lives.
    public var heartbeat: Duration
    /// How long the log keeps an event; a cursor older than that is answered with `reset`.
    public var retention: Duration
    /// How many events may wait for one stream's reader; a reader that falls further behind is
    /// disconnected and resumes from its cursor.
    public var queueCapacity: Int
    /// How often the log is read for events written elsewhere by storage that does not say so
    /// (another process on SQLite). PostgreSQL's `NOTIFY` says so, and its listener wakes the
    /// feed after each reconnection: there the log is read at each heartbeat, in case.
    public var pollInterval: Duration
    /// What `retry:` tells a client to wait before it reconnects, in milliseconds.
    public var retryMilliseconds: Int

    public init(
        maximumStreams: Int = ServerSetting.maximumEventStreams.defaultValue,
        streamsPerPerson: Int = ServerSetting.eventStreamsPerAccount.defaultValue,
        streamsPerAddress: Int = ServerSetting.eventStreamsPerAddress.defaultValue,
        streamsPerApplication: Int = ServerSetting.eventStreamsPerApplication.defaultValue,
        heartbeat: Duration = .seconds(15),
        retention: Duration = ServerSetting.eventRetention.defaultDuration,
        queueCapacity: Int = 256,
        pollInterval: Duration = .milliseconds(250),
        retryMilliseconds: Int = 2_000
    ) {
        self.maximumStreams = maximumStreams
        self.streamsPerPerson = streamsPerPerson
        self.streamsPerAddress = streamsPerAddress
        self.streamsPerApplication = streamsPerApplication
        self.heartbeat = heartbeat
        self.retention = retention
        self.queueCapacity = queueCapacity
        self.pollInterval = pollInterval
        self.retryMilliseconds = retryMilliseconds
    }

    /// The most streams all applications' own tokens hold together: half of ``maximumStreams``.
    public var applicationStreams: Int { maximumStreams / 2 }

    /// The instance's last places, a quarter of ``maximumStreams``: kept for a reader that holds
    /// no stream, from an address that holds none (`StreamShares`).
    public var reservedStreams: Int { maximumStreams / 4 }
}
