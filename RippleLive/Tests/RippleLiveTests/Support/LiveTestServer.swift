import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOConcurrencyHelpers
import NIOCore
import Ripple
import RippleLive
import ServiceLifecycle

/// A Hummingbird server on a free loopback port, serving a hub's live queries, for the
/// time of `body`.
enum LiveTestServer {
    static func run(
        _ hub: LiveHub,
        authorize: @escaping @Sendable (Request, BasicWebSocketRequestContext, LiveSubscription) async throws -> LiveScope = { _, _, _ in .public },
        grant: (@Sendable (Request, BasicWebSocketRequestContext, LiveSubscription) async throws -> LiveGrant)? = nil,
        liveServer: Bool = false,
        _ body: @Sendable (_ port: Int) async throws -> Void
    ) async throws {
        let router = Router(context: BasicWebSocketRequestContext.self)
        if let grant {
            router.addLiveQueries(hub, authorizeUntil: grant)
            router.addLiveWebSocket(hub, authorizeUntil: grant)
        } else {
            router.addLiveQueries(hub, authorize: authorize)
            router.addLiveWebSocket(hub, authorize: authorize)
        }
        let (app, ports) = makeApplication(router, liveServer: liveServer ? hub : nil)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.run() }
            guard let port = await ports.first(where: { _ in true }) else { return }
            defer { group.cancelAll() }
            try await body(port)
        }
    }
}

extension LiveTestServer {
    /// An application of `router` on a free loopback port, which upgrades WebSockets, and
    /// the port once it listens; with the connections of `LiveServerChannel` for the hub
    /// `liveServer`, when given.
    static func makeApplication(
        _ router: Router<BasicWebSocketRequestContext>, liveServer: LiveHub? = nil
    ) -> (some ApplicationProtocol & Service, AsyncStream<Int>) {
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        // The server's own log (its connections cancelled at the end of each test) is noise.
        var logger = Logger(label: "ripple-live-tests")
        logger.logLevel = .critical
        let app = Application(
            router: router,
            server: liveServer.map { .liveHTTP1WebSocketUpgrade($0, webSocketRouter: router) } ?? .http1WebSocketUpgrade(webSocketRouter: router),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            },
            logger: logger)
        return (app, ports)
    }
}

/// A database file in a fresh temporary directory, with a `player` table.
struct TestDatabase {
    let directory: URL
    var path: String { directory.appendingPathComponent("db.sqlite").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func makePool() throws -> DatabasePool {
        let pool = try DatabasePool(path: path)
        try makeSchema(pool)
        return pool
    }

    func makeQueue() throws -> DatabaseQueue {
        let queue = try DatabaseQueue(path: path)
        try makeSchema(queue)
        return queue
    }

    private func makeSchema(_ writer: some DatabaseWriter) throws {
        try writer.write { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL);
                CREATE TABLE IF NOT EXISTS other (id INTEGER PRIMARY KEY, note TEXT);
                """)
        }
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}

struct Player: Codable, Equatable, FetchableRecord, PersistableRecord, Sendable {
    var id: Int64
    var name: String
    var score: Int
}

/// Counts calls from any thread.
final class Counter: Sendable {
    private let count = NIOLockedValueBox(0)
    func increment() { count.withLockedValue { $0 += 1 } }
    var value: Int { count.withLockedValue { $0 } }
}
