import Foundation
import RippleLive

/// The server process of the idle-memory measure, so that each round starts from a
/// fresh heap: serves the ticks (one committed, so that first values carry a stamp),
/// says `port N`, then answers `rss` (`rss BYTES`, its resident size), `connections`
/// (`connections N`, the hub's open connections) and `quit`.
enum ServeMode {
    static func run() async throws {
        let database = try BenchDatabase()
        defer { database.remove() }
        try await database.tick()
        try await serveLiveQueries(database.hub) { port in
            writeLine("port \(port)")
            let commands = LineReader(fileDescriptor: STDIN_FILENO)
            loop: while let command = await commands.next() {
                switch command {
                case "rss": writeLine("rss \(residentBytes() ?? 0)")
                case "connections": writeLine("connections \(database.hub.statistics.connections)")
                case "quit": break loop
                default: writeLine("unknown \(command)")
                }
            }
        }
    }
}
