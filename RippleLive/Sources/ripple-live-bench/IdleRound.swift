import Foundation

/// One round of the idle-memory measure, on a fresh server process: its resident size
/// with 10 warm connections, then with `subscribers` more idle ones, each a connection of
/// its own with one subscription (the costliest way to hold a subscriber).
struct IdleRound {
    var held: Int
    var bytesPerSubscriber: Double

    static func run(subscribers: Int) async throws -> IdleRound {
        let server = try BenchChild(["serve"])
        let port = try await server.expect("port").first.map(String.init) ?? "0"
        // Warm: the server's first connections allocate what every later one reuses.
        let warm = try BenchChild(["client", "--port", port, "--connections", "10"])
        _ = try await warm.expect("ready")
        try await Task.sleep(for: .seconds(1))
        let before = try await resident(server)
        let idle = try BenchChild(["client", "--port", port, "--connections", String(subscribers)])
        _ = try await idle.expect("ready")
        try await Task.sleep(for: .seconds(2))
        let after = try await resident(server)
        let connections = try await server.ask("connections", expecting: "connections").first.flatMap { Int($0) } ?? 0
        await idle.quit()
        await warm.quit()
        await server.quit()
        return IdleRound(held: connections - 10, bytesPerSubscriber: Double(after - before) / Double(subscribers))
    }

    private static func resident(_ server: BenchChild) async throws -> Int {
        try await server.ask("rss", expecting: "rss").first.flatMap { Int($0) } ?? 0
    }
}
