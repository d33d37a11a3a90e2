/// How long a connection may take and how many may be open: what keeps slow or idle clients from
/// holding the server.
public struct ConnectionLimits: Sendable, Hashable {
    /// How long a client may take to send a whole request head (request line and headers), from
    /// the moment the connection opens or the previous answer was sent. Trickling bytes does not
    /// extend it.
    public var headerTimeout: Duration
    /// How long a connection may stay without reading or writing anything before it is closed.
    public var idleTimeout: Duration
    /// How many connections may be open at once; further ones wait to be accepted.
    public var maximumConnections: Int

    public init(
        headerTimeout: Duration = ServerSetting.headerTimeout.defaultDuration,
        idleTimeout: Duration = ServerSetting.idleTimeout.defaultDuration,
        maximumConnections: Int = ServerSetting.maximumConnections.defaultValue
    ) {
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.maximumConnections = maximumConnections
    }
}
