import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// The client process: opens `connections` event streams of the ticks on
/// `127.0.0.1:port`, says `ready N` once each got its first value, then answers the
/// driver's commands on its standard input:
///
/// - `reset`: forgets the latencies recorded so far (`ok`);
/// - `count`: `count N`, the latencies recorded since;
/// - `report`: `report N p50 p99 max` in nanoseconds, and forgets them;
/// - `quit`: closes the connections and ends.
///
/// A bulky client (`bulky`) subscribes to the bulky query instead of the ticks. A
/// throttled client (`throttled`) subscribes to the bulky query, and reads 1 KB every
/// 100 ms, with a 4 KB receive buffer: the server's writes to it soon wait. It is ready
/// once connected: its first value takes seconds to read.
enum ClientMode {
    static func run(port: Int, connections: Int, bulky: Bool, throttled: Bool) async throws {
        let stamps = ReceivedStamps()
        let channels = try await openConnections(port: port, count: connections, bulky: bulky || throttled, throttled: throttled, stamps: stamps)
        let deadline = ContinuousClock.now + .seconds(300)
        while !throttled && stamps.readyConnections < connections {
            guard ContinuousClock.now < deadline else {
                throw BenchFailure("only \(stamps.readyConnections) of \(connections) connections got a first value")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        writeLine("ready \(connections)")
        let commands = LineReader(fileDescriptor: STDIN_FILENO)
        loop: while let command = await commands.next() {
            switch command {
            case "reset":
                _ = stamps.take()
                writeLine("ok")
            case "count":
                writeLine("count \(stamps.count)")
            case "report":
                let latencies = stamps.take().sorted()
                writeLine("report \(latencies.count) \(percentile(latencies, 0.50)) \(percentile(latencies, 0.99)) \(latencies.last ?? 0)")
            case "quit":
                break loop
            default:
                writeLine("unknown \(command)")
            }
        }
        for channel in channels {
            try? await channel.close()
        }
    }

    /// Opens the connections, at most 100 being set up at once, and sends each request.
    private static func openConnections(port: Int, count: Int, bulky: Bool, throttled: Bool, stamps: ReceivedStamps) async throws -> [any Channel] {
        try await withThrowingTaskGroup(of: (any Channel).self) { group in
            var channels: [any Channel] = []
            for index in 0..<count {
                if index >= 100, let channel = try await group.next() { channels.append(channel) }
                group.addTask { try await connect(port: port, bulky: bulky, throttled: throttled, stamps: stamps) }
            }
            while let channel = try await group.next() { channels.append(channel) }
            return channels
        }
    }

    private static func connect(port: Int, bulky: Bool, throttled: Bool, stamps: ReceivedStamps) async throws -> any Channel {
        var bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(StampScanner(stamps: stamps))
                }
            }
        if throttled {
            bootstrap =
                bootstrap
                .channelOption(ChannelOptions.socketOption(.so_rcvbuf), value: 4096)
                .channelOption(ChannelOptions.autoRead, value: false)
                .channelOption(ChannelOptions.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: 1024))
        }
        let channel = try await bootstrap.connect(host: "127.0.0.1", port: port).get()
        let headers = HTTPHeaders([("Host", "127.0.0.1:\(port)"), ("Accept", "text/event-stream")])
        channel.write(
            HTTPClientRequestPart.head(HTTPRequestHead(version: .http1_1, method: .GET, uri: liveTarget(bulky: bulky), headers: headers)),
            promise: nil)
        try await channel.writeAndFlush(HTTPClientRequestPart.end(nil)).get()
        if throttled {
            channel.eventLoop.scheduleRepeatedTask(initialDelay: .zero, delay: .milliseconds(100)) { _ in
                channel.read()
            }
        }
        return channel
    }
}

/// The value at `fraction` of sorted `values` (nearest rank); 0 for none.
func percentile(_ sorted: [Int64], _ fraction: Double) -> Int64 {
    guard !sorted.isEmpty else { return 0 }
    let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}
