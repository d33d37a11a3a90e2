/// A server setting given in whole units (seconds, connections): its default and the values it
/// accepts. The server's configuration takes its defaults from these, and `marquee serve` its
/// options' defaults and checks, so each bound is written once.
public struct ServerSetting: Sendable {
    /// What the setting is, in words: "the header timeout".
    public let name: String
    public let defaultValue: Int
    public let range: ClosedRange<Int>
    /// The unit after a number in messages: "seconds", or empty for a count.
    public let unit: String

    init(_ name: String, default defaultValue: Int, range: ClosedRange<Int>, unit: String = "seconds") {
        self.name = name
        self.defaultValue = defaultValue
        self.range = range
        self.unit = unit
    }

    /// Why `value` is refused, or `nil` when it is accepted.
    public func problem(with value: Int) -> String? {
        guard !range.contains(value) else { return nil }
        let unit = self.unit.isEmpty ? "" : " \(self.unit)"
        return "\(name) must be from \(range.lowerBound) to \(range.upperBound)\(unit), not \(value)"
    }

    /// The default as a duration, for a setting in seconds.
    public var defaultDuration: Duration { .seconds(defaultValue) }
}

extension ServerSetting {
    /// A year in seconds: the longest a client keeps an answer fresh (so the longest max-age
    /// worth sending), and the longest an access token may live.
    static let aYear = 31_536_000

    public static let port = ServerSetting("the port", default: 8080, range: 0...65535, unit: "")
    public static let headerTimeout = ServerSetting("the header timeout", default: 10, range: 1...3600)
    public static let idleTimeout = ServerSetting("the idle timeout", default: 60, range: 1...86_400)
    public static let maximumConnections = ServerSetting("the maximum number of connections", default: 1024, range: 1...100_000, unit: "")
    /// At most a year: the longest a client keeps an answer fresh anyway.
    public static let maximumAge = ServerSetting("the maximum age", default: 60, range: 0...aYear)
    public static let drainDelay = ServerSetting("the drain delay", default: 0, range: 0...3600)
    public static let readinessTimeout = ServerSetting("the ready timeout", default: 1, range: 1...60)
    public static let queryTimeout = ServerSetting("the query timeout", default: 5, range: 1...600)
    public static let shutdownTimeout = ServerSetting("the shutdown timeout", default: 10, range: 1...3600)
    public static let responseCacheMegabytes = ServerSetting("the response cache size", default: 64, range: 1...65_536, unit: "MiB")
    /// Event streams (`GET /api/events`) one instance holds open; below the connection cap, which
    /// they count against (see ``FeedSettings/maximumStreams``).
    public static let maximumEventStreams = ServerSetting("the maximum number of event streams", default: 768, range: 0...100_000, unit: "")
    /// Event streams one client address (an IPv6 address by its /64) holds on one instance,
    /// whoever's tokens it uses: a household's devices behind one router.
    public static let eventStreamsPerAddress = ServerSetting("the event streams per address", default: 8, range: 1...100_000, unit: "")
    /// Event streams one account holds on one instance: a person's devices.
    public static let eventStreamsPerAccount = ServerSetting("the event streams per account", default: 4, range: 1...100_000, unit: "")
    /// Event streams one client application holds on one instance with its own token (no
    /// person): a service that fans the catalogue's events out. Applications together never hold
    /// more than half of the streams.
    public static let eventStreamsPerApplication = ServerSetting("the event streams per application", default: 16, range: 1...100_000, unit: "")
    /// A day: a laptop closed overnight resumes its stream without a `reset`.
    public static let eventRetention = ServerSetting("the event retention", default: 86_400, range: 1...2_592_000)
    public static let accessTokenLifetime = ServerSetting("the token lifetime", default: 3600, range: 1...aYear)
}
