import Hummingbird
import HummingbirdWebSocket
import RippleLive

/// A hub on a fresh database file, served on a loopback port, for one test. Its queries are
/// `top` (whose fetches `fetches` counts) and the test's own.
struct LiveFixture: Sendable {
    let hub: LiveHub
    let port: Int
    let fetches: Counter
    let path: String

    static func run(
        queries: [LiveQuery] = [],
        configuration: LiveConfiguration = LiveConfiguration(),
        authorize: @escaping @Sendable (Request, BasicWebSocketRequestContext, LiveSubscription) async throws -> LiveScope = { _, _, _ in .public },
        grant: (@Sendable (Request, BasicWebSocketRequestContext, LiveSubscription) async throws -> LiveGrant)? = nil,
        liveServer: Bool = false,
        _ body: @Sendable (LiveFixture) async throws -> Void
    ) async throws {
        let database = try TestDatabase()
        defer { database.remove() }
        let pool = try database.makePool()
        let fetches = Counter()
        let hub = try LiveHub(writer: pool, queries: [topQuery(fetches: fetches)] + queries, configuration: configuration)
        try await LiveTestServer.run(hub, authorize: authorize, grant: grant, liveServer: liveServer) { port in
            try await body(LiveFixture(hub: hub, port: port, fetches: fetches, path: database.path))
        }
    }

    /// Connects with `subscriptions` (`name:params`).
    func connect(_ subscriptions: [String], lastEventID: String? = nil, headers: [(String, String)] = [], receiveBufferSize: Int? = nil) async throws -> SSEClient {
        try await SSEClient.connect(
            port: port, target: livePath(subscriptions), lastEventID: lastEventID,
            headers: headers, receiveBufferSize: receiveBufferSize)
    }

    /// Connects with `subscriptions`, and waits for the first event.
    func subscribe(_ subscriptions: String..., headers: [(String, String)] = [], receiveBufferSize: Int? = nil) async throws -> (SSEClient, SSEEvent?) {
        let client = try await connect(subscriptions, headers: headers, receiveBufferSize: receiveBufferSize)
        let first = try await within("first event of \(subscriptions)") { await client.nextEvent() }
        return (client, first)
    }
}
