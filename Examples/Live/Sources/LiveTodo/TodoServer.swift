import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import RippleLive

/// The live todo list's server: a hub on the database file, and the routes.
public enum TodoServer {
    /// The page, as shipped in the target's resources.
    public static func page() throws -> ByteBuffer {
        guard let url = Bundle.module.url(forResource: "index", withExtension: "html") else {
            throw HTTPError(.internalServerError, message: "index.html is missing from the resources")
        }
        return ByteBuffer(data: try Data(contentsOf: url))
    }

    /// Serves the list of the database at `path` on `host`:`port` (0 for any free port)
    /// until the process is interrupted; `onRunning` gets the page's URL once the server
    /// listens.
    public static func run(host: String, port: Int, path: String, onRunning: @escaping @Sendable (String) -> Void) async throws {
        let pool = try TodoStore.openPool(path: path)
        let hub = try LiveHub(writer: pool, queries: TodoQueries.all)
        let router = TodoRoutes.makeRouter(hub: hub, page: try page())
        var logger = Logger(label: "live-todo")
        logger.logLevel = .warning
        let app = Application(
            router: router,
            server: .liveHTTP1WebSocketUpgrade(hub, webSocketRouter: router),
            configuration: .init(address: .hostname(host, port: port), serverName: "live-todo"),
            onServerRunning: { channel in
                onRunning("http://\(host):\(channel.localAddress?.port ?? port)/")
            },
            logger: logger)
        try await app.runService()
    }
}
