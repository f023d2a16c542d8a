import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import RippleLive
import ServiceLifecycle
import Testing

/// A server that shuts down gracefully (SIGTERM, Ctrl-C) waits for its responses: the
/// live streams and sockets end then, instead of holding it up.
@Suite(.serialized) struct LiveShutdownTests {
    @Test func aGracefulShutdownEndsStreamsAndSockets() async throws {
        let database = try TestDatabase()
        defer { database.remove() }
        let hub = try LiveHub(writer: try database.makePool(), queries: [topQuery(fetches: Counter())])
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.addLiveQueries(hub)
        router.addLiveWebSocket(hub)
        let (app, ports) = LiveTestServer.makeApplication(router)
        var logger = Logger(label: "ripple-live-tests")
        logger.logLevel = .critical
        let services = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let running = Task { try await services.run() }
        let port = try #require(await ports.first(where: { _ in true }))

        let stream = try await SSEClient.connect(port: port, target: livePath(#"top:{"limit":3}"#))
        let first = try await within("first event") { await stream.nextEvent() }
        #expect(first?.event == "update")
        let socket = LiveSocket.connect(port: port)
        socket.subscribe([(0, "top", #"{"limit":3}"#)])
        _ = try await within("first message") { await socket.nextMessage() }

        await services.triggerGracefulShutdown()
        try await within("the stream ends") {
            while await stream.nextEvent() != nil {}
        }
        try await eventually("the socket is closed") { socket.isClosed }
        try await within("the server stops") { try await running.value }
        #expect(hub.statistics.connections == 0)
        await stream.close()
        await socket.close()
    }
}
