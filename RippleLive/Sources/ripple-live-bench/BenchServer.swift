import Foundation
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import Ripple
import RippleLive

/// A row the writer stamps with `CLOCK_MONOTONIC` in its transaction: a client that
/// receives it knows how long the commit took to reach it.
struct Tick: Codable, FetchableRecord, Sendable {
    var id: Int64
    var stamp: Int64
    var note: String
}

/// The live query every benchmark client subscribes to: the ten latest ticks, about
/// 1.2 KB of JSON, the newest first (its stamp is the first one in the event). Its
/// fetches are counted: the hub's own counter adds up all queries'.
func ticksQuery(counting fetches: FetchCounter) -> LiveQuery {
    LiveQuery("ticks") { _ in
        LiveFetch(tracking: Table("tick")) { db in
            fetches.increment()
            return try Tick.fetchAll(db, sql: "SELECT id, stamp, note FROM tick ORDER BY id DESC LIMIT 10")
        }
    }
}

/// Counts calls from any thread.
final class FetchCounter: Sendable {
    private let count = NIOLockedValueBox(0)
    func increment() { count.withLockedValue { $0 += 1 } }
    var value: Int { count.withLockedValue { $0 } }
}

/// A bulky live query (64 KB of JSON) that changes with the ticks: the throttled
/// client's, so that it falls behind after a few commits rather than after the hundreds
/// that the socket buffers would hold of the ticks.
let bulkQuery = LiveQuery("bulk") { _ in
    LiveFetch(tracking: Table("tick")) { db in
        let stamp = try Int64.fetchOne(db, sql: "SELECT stamp FROM tick ORDER BY id DESC LIMIT 1") ?? 0
        return Bulk(padding: String(repeating: "x", count: 64 * 1024), stamp: stamp)
    }
}

struct Bulk: Encodable, Sendable {
    var padding: String
    var stamp: Int64
}

/// The database of a benchmark server, in a fresh temporary directory, and its hub.
struct BenchDatabase {
    let directory: URL
    let hub: LiveHub
    /// The fetches of the ticks query.
    let tickFetches = FetchCounter()

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-live-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let pool = try DatabasePool(path: directory.appendingPathComponent("db.sqlite").path)
        try pool.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE tick (id INTEGER PRIMARY KEY, stamp INTEGER NOT NULL, note TEXT NOT NULL);
                    CREATE TABLE other (id INTEGER PRIMARY KEY, note TEXT NOT NULL);
                    """)
        }
        hub = try LiveHub(writer: pool, queries: [ticksQuery(counting: tickFetches), bulkQuery])
    }

    /// Commits one tick, stamped inside its transaction, and returns once its value is
    /// posted to the connections.
    func tick() async throws {
        let note = String(repeating: "n", count: 96)
        _ = try await hub.write { db in
            try db.execute(sql: "INSERT INTO tick (stamp, note) VALUES (?, ?)", arguments: [monotonicNanoseconds(), note])
        }
    }

    /// Commits a row of a table that no live query reads.
    func unrelatedWrite() async throws {
        _ = try await hub.write { db in
            try db.execute(sql: "INSERT INTO other (note) VALUES ('unrelated')")
        }
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A Hummingbird server of a hub's live queries on a free loopback port, for the time of
/// `body`; with `bare`, the same path serves a plain stream instead, without the hub: one
/// stamped event, then nothing until the client leaves (what Hummingbird alone costs a
/// held connection). With `liveServer`, the server's connections are `LiveServerChannel`'s.
func serveLiveQueries(
    _ hub: LiveHub, bare: Bool = false, liveServer: Bool = false, _ body: @Sendable (_ port: Int) async throws -> Void
) async throws {
    let router = Router()
    if bare {
        router.get("live") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/event-stream"],
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: "event: update\ndata: {\"stamp\":\(monotonicNanoseconds())}\n\n"))
                    while !Task.isCancelled {
                        try await Task.sleep(for: .seconds(3600))
                    }
                    try await writer.finish(nil)
                })
        }
    } else {
        router.addLiveQueries(hub, at: "live")
    }
    let (ports, portContinuation) = AsyncStream<Int>.makeStream()
    // Clients that leave while their stream is written are routine here, not news.
    var logger = Logger(label: "ripple-live-bench")
    logger.logLevel = .critical
    let app = Application(
        router: router,
        server: liveServer ? .liveHTTP1(hub) : .http1(),
        configuration: .init(address: .hostname("127.0.0.1", port: 0), backlog: 4096),
        onServerRunning: { channel in
            portContinuation.yield(channel.localAddress?.port ?? 0)
            portContinuation.finish()
        },
        logger: logger)
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await app.run() }
        guard let port = await ports.first(where: { _ in true }) else { return }
        defer { group.cancelAll() }
        try await body(port)
    }
}

/// The target of a subscription to the ticks, or to the bulky query.
func liveTarget(bulky: Bool) -> String {
    bulky ? "/live?q=bulk" : "/live?q=ticks"
}
