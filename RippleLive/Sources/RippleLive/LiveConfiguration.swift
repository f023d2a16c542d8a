/// The limits of a ``LiveHub`` and its connections.
public struct LiveConfiguration: Sendable {
    /// How long a shared query stays observed after its last subscriber left, so that
    /// clients that reconnect find its value without a fetch. 30 seconds by default.
    public var gracePeriod: Duration = .seconds(30)

    /// How long one write may wait for a client that does not read before the connection
    /// is closed. 30 seconds by default.
    public var stallTimeout: Duration = .seconds(30)

    /// How long a connection may stay silent before it gets a heartbeat comment, which
    /// keeps proxies from closing it and finds out clients that left. 15 seconds by
    /// default.
    public var heartbeatInterval: Duration = .seconds(15)

    /// The most subscriptions one connection may carry. 64 by default.
    public var maximumSubscriptionsPerConnection = 64

    /// The default limits.
    public init() {}
}
