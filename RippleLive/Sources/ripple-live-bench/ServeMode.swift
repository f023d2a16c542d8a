import Foundation
import RippleLive

/// The server process of the idle-memory measure, so that each round starts from a
/// fresh heap: serves the ticks (one committed, so that first values carry a stamp), with
/// `--live-server` on the connections of `LiveServerChannel`, or with `--bare` a plain
/// Hummingbird stream without the hub; says `port N`, then answers `rss` (`rss BYTES`, its resident size), `trimmed-rss`
/// (the same once the allocator gave its free pages back), `connections`
/// (`connections N`, the hub's open connections) and `quit`.
enum ServeMode {
    static func run(bare: Bool, liveServer: Bool) async throws {
        let database = try BenchDatabase()
        defer { database.remove() }
        try await database.tick()
        try await serveLiveQueries(database.hub, bare: bare, liveServer: liveServer) { port in
            writeLine("port \(port)")
            let commands = LineReader(fileDescriptor: STDIN_FILENO)
            loop: while let command = await commands.next() {
                switch command {
                case "rss": writeLine("rss \(residentBytes() ?? 0)")
                case "trimmed-rss":
                    trimAllocator()
                    writeLine("rss \(residentBytes() ?? 0)")
                case "connections": writeLine("connections \(database.hub.statistics.connections)")
                case "quit": break loop
                default: writeLine("unknown \(command)")
                }
            }
        }
    }
}
