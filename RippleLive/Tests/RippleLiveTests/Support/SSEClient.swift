import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// One Server-Sent Event, as a browser's `EventSource` parses it.
struct SSEEvent: Equatable {
    var event: String
    var id: String?
    var data: String

    /// The data, decoded as JSON.
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] ?? [:]
    }
}

/// What the test client hears of a response.
enum SSEClientPart {
    case head(HTTPResponseStatus, HTTPHeaders)
    case event(SSEEvent)
    /// A body that is not an event stream (an error response), whole.
    case body(String)
    case closed
}

/// A small HTTP/1.1 client of event streams on NIO, for tests against a live server: it
/// can stop reading (the server's writes then wait, as with a slow client) and shrink its
/// receive buffer so that they wait soon.
final class SSEClient: Sendable {
    let channel: any Channel
    let parts: AsyncStream<SSEClientPart>
    private let iterator: IteratorBox

    private init(channel: any Channel, parts: AsyncStream<SSEClientPart>) {
        self.channel = channel
        self.parts = parts
        self.iterator = IteratorBox(parts.makeAsyncIterator())
    }

    /// Connects to `127.0.0.1:port` and sends `GET target`.
    static func connect(
        port: Int,
        target: String,
        lastEventID: String? = nil,
        headers extraHeaders: [(String, String)] = [],
        receiveBufferSize: Int? = nil
    ) async throws -> SSEClient {
        let (stream, continuation) = AsyncStream<SSEClientPart>.makeStream()
        var bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        if let receiveBufferSize {
            bootstrap = bootstrap.channelOption(ChannelOptions.socketOption(.so_rcvbuf), value: SocketOptionValue(receiveBufferSize))
        }
        let channel = try await bootstrap
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(SSEClientHandler(continuation: continuation))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        var headers = HTTPHeaders([("Host", "127.0.0.1:\(port)"), ("Accept", "text/event-stream")])
        if let lastEventID { headers.add(name: "Last-Event-ID", value: lastEventID) }
        headers.add(contentsOf: extraHeaders)
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target, headers: headers)
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        try await channel.writeAndFlush(HTTPClientRequestPart.end(nil)).get()
        return SSEClient(channel: channel, parts: stream)
    }

    /// The next part of the response; `.closed` once the connection closed.
    func next() async -> SSEClientPart {
        await iterator.next() ?? .closed
    }

    /// The next event, skipping the head; nil once the connection closed.
    func nextEvent() async -> SSEEvent? {
        while true {
            switch await next() {
            case .event(let event): return event
            case .closed: return nil
            case .head, .body: continue
            }
        }
    }

    /// Stops reading from the socket: the server's writes wait once the buffers are full.
    func pauseReading() async throws {
        try await channel.setOption(ChannelOptions.autoRead, value: false).get()
    }

    /// Reads again.
    func resumeReading() async throws {
        try await channel.setOption(ChannelOptions.autoRead, value: true).get()
        channel.read()
    }

    func close() async {
        try? await channel.close().get()
    }
}

/// The iterator of the parts, advanced by one test task at a time.
private final class IteratorBox: @unchecked Sendable {  // a test reads its client from one task
    var iterator: AsyncStream<SSEClientPart>.Iterator
    init(_ iterator: AsyncStream<SSEClientPart>.Iterator) { self.iterator = iterator }
    func next() async -> SSEClientPart? { await iterator.next() }
}

/// Parses the body into events as the bytes come (lines, `field: value`, a blank line
/// ends an event; comments are skipped).
private final class SSEClientHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPClientResponsePart

    private let continuation: AsyncStream<SSEClientPart>.Continuation
    private let parser = EventStreamParser()

    init(continuation: AsyncStream<SSEClientPart>.Continuation) {
        self.continuation = continuation
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            parser.isEventStream = head.headers["Content-Type"].first?.hasPrefix("text/event-stream") ?? false
            continuation.yield(.head(head.status, head.headers))
        case .body(var buffer):
            let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
            if parser.isEventStream {
                for event in parser.feed(bytes) { continuation.yield(.event(event)) }
            } else {
                parser.rawBody += bytes
            }
        case .end:
            if !parser.isEventStream {
                continuation.yield(.body(String(decoding: parser.rawBody, as: UTF8.self)))
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        continuation.yield(.closed)
        continuation.finish()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

/// The parser's state, used on the channel's event loop only.
private final class EventStreamParser: @unchecked Sendable {  // touched from the channel's event loop only
    var isEventStream = false
    var rawBody: [UInt8] = []
    private var line: [UInt8] = []
    private var event = "message"
    private var id: String?
    private var data: [String] = []

    func feed(_ bytes: [UInt8]) -> [SSEEvent] {
        var events: [SSEEvent] = []
        for byte in bytes {
            guard byte == UInt8(ascii: "\n") else {
                line.append(byte)
                continue
            }
            let text = String(decoding: line, as: UTF8.self)
            line.removeAll(keepingCapacity: true)
            if text.isEmpty {
                if !data.isEmpty {
                    events.append(SSEEvent(event: event, id: id, data: data.joined(separator: "\n")))
                }
                event = "message"
                data = []
                continue
            }
            if text.hasPrefix(":") { continue }
            let field: Substring
            var value: Substring
            if let colon = text.firstIndex(of: ":") {
                field = text[..<colon]
                value = text[text.index(after: colon)...]
                if value.hasPrefix(" ") { value = value.dropFirst() }
            } else {
                field = text[...]
                value = ""
            }
            switch field {
            case "event": event = String(value)
            case "id": id = String(value)
            case "data": data.append(String(value))
            default: break
            }
        }
        return events
    }
}
