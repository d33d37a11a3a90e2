/// How the server decides whether a request that carries a `traceparent` is traced: only a traced
/// request leaves the event loop's kept answers for the router, so a header alone costs nothing.
///
/// A caller's sampled flag is an instruction anyone can give. Trusted (behind proxies the operator
/// runs, which set or strip the header), the flag decides, as a parent-based sampler does. Not
/// trusted (the default of a public instance), the instance's own ``ratio`` decides by a draw of
/// its own, not by the caller's trace id, which the caller picks. Either way one client address
/// may have at most ``tracesPerMinute`` of its requests traced a minute.
public struct TraceSampling: Sendable, Equatable {
    /// Whether a caller's sampled flag decides (``ServerSetting/tracesPerMinute`` still bounds it).
    public var trustsCallerFlags: Bool
    /// The share of requests with an untrusted `traceparent` that are traced, 0 to 1: the root
    /// ratio of `OTEL_TRACES_SAMPLER`.
    public var ratio: Double
    /// The most requests with a `traceparent` one client address has traced a minute.
    public var tracesPerMinute: Int

    public init(trustsCallerFlags: Bool = false, ratio: Double = 1, tracesPerMinute: Int = ServerSetting.tracesPerMinute.defaultValue) {
        self.trustsCallerFlags = trustsCallerFlags
        self.ratio = min(max(ratio, 0), 1)
        self.tracesPerMinute = tracesPerMinute
    }
}

extension ServerSetting {
    /// Requests with a `traceparent` one address may have traced a minute (`serve --traces-per-minute`).
    public static let tracesPerMinute = ServerSetting("the traces per minute", default: 30, range: 0...1_000_000, unit: "")
}
