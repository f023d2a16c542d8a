import Foundation

/// One round of the idle-memory measure, on a fresh server process: its resident size
/// with 10 warm connections, then with `subscribers` more idle ones, each a connection of
/// its own with one subscription (the costliest way to hold a subscriber).
struct IdleRound {
    var held: Int
    var bytesPerSubscriber: Double
    /// The same, each resident size read once the allocator gave its free pages back.
    var trimmedBytesPerSubscriber: Double

    static func run(subscribers: Int, bare: Bool = false, liveServer: Bool = false) async throws -> IdleRound {
        let server = try BenchChild(bare ? ["serve", "--bare"] : liveServer ? ["serve", "--live-server"] : ["serve"])
        let port = try await server.expect("port").first.map(String.init) ?? "0"
        // Warm: the server's first connections allocate what every later one reuses.
        let warm = try BenchChild(["client", "--port", port, "--connections", "10"])
        _ = try await warm.expect("ready")
        try await Task.sleep(for: .seconds(1))
        // Both readings after start from a baseline without free pages.
        let before = try await resident(server, trimmed: true)
        let idle = try BenchChild(["client", "--port", port, "--connections", String(subscribers)])
        _ = try await idle.expect("ready")
        try await Task.sleep(for: .seconds(2))
        let after = try await resident(server)
        let trimmedAfter = try await resident(server, trimmed: true)
        // The bare server has no hub to count them: its client said they all got their event.
        let connections = bare ? subscribers + 10 : try await server.ask("connections", expecting: "connections").first.flatMap { Int($0) } ?? 0
        await idle.quit()
        await warm.quit()
        await server.quit()
        return IdleRound(
            held: connections - 10, bytesPerSubscriber: Double(after - before) / Double(subscribers),
            trimmedBytesPerSubscriber: Double(trimmedAfter - before) / Double(subscribers))
    }

    private static func resident(_ server: BenchChild, trimmed: Bool = false) async throws -> Int {
        try await server.ask(trimmed ? "trimmed-rss" : "rss", expecting: "rss").first.flatMap { Int($0) } ?? 0
    }
}
