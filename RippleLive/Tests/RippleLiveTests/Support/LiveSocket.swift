import Foundation
import HummingbirdWSClient
import Logging
import NIOConcurrencyHelpers

/// A WebSocket client of live queries, for tests against a live server: what it receives
/// is kept in order, as the event stream's events (`event` is the message's type), and it
/// can stop reading for a while, as a slow client does.
final class LiveSocket: Sendable {
    private let received: NIOLockedValueBox<(messages: [SSEEvent], closed: Bool, cursor: Int)>
    private let reading: NIOLockedValueBox<Bool>
    private let outgoing: AsyncStream<String>.Continuation
    private let task: Task<Void, Never>

    private init(port: Int, path: String) {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        outgoing = continuation
        let received = NIOLockedValueBox<(messages: [SSEEvent], closed: Bool, cursor: Int)>(([], false, 0))
        let reading = NIOLockedValueBox(true)
        self.received = received
        self.reading = reading
        var logger = Logger(label: "live-socket")
        logger.logLevel = .critical
        var configuration = WebSocketClientConfiguration()
        // The values of the tests' slow clients are large; browsers take any size.
        configuration.maxFrameSize = 1 << 24
        task = Task {
            _ = try? await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)\(path)", configuration: configuration, logger: logger) { inbound, outbound, _ in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await text in stream {
                            try await outbound.write(.text(text))
                        }
                    }
                    group.addTask {
                        var iterator = inbound.messages(maxSize: 1 << 26).makeAsyncIterator()
                        while true {
                            // A slow client: while not reading, the server's writes wait.
                            while !reading.withLockedValue({ $0 }) {
                                try await Task.sleep(for: .milliseconds(5))
                            }
                            guard let message = try await iterator.next() else { return }
                            guard case .text(let text) = message else { continue }
                            received.withLockedValue { $0.messages.append(LiveSocket.event(text)) }
                        }
                    }
                    defer { group.cancelAll() }
                    try await group.next()
                }
            }
            received.withLockedValue { $0.closed = true }
        }
    }

    /// Connects to the live queries' socket of the server on `port`.
    static func connect(port: Int, path: String = "/live/ws") -> LiveSocket {
        LiveSocket(port: port, path: path)
    }

    /// A message as the event stream would have it: its type, its id, its JSON.
    static func event(_ text: String) -> SSEEvent {
        let json = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
        return SSEEvent(event: json["type"] as? String ?? "", id: json["id"] as? String, data: text)
    }

    func send(_ text: String) {
        outgoing.yield(text)
    }

    /// Subscribes `subscriptions` (id, query, JSON parameters or nil) in one message.
    func subscribe(_ subscriptions: [(id: Int, query: String, parameters: String?)], lastEventID: String? = nil) {
        let items = subscriptions.map { item in
            "{\"id\":\(item.id),\"query\":\"\(item.query)\"" + (item.parameters.map { ",\"parameters\":\($0)" } ?? "") + "}"
        }
        let resume = lastEventID.map { ",\"lastEventId\":\"\($0)\"" } ?? ""
        send("{\"type\":\"subscribe\",\"subscriptions\":[\(items.joined(separator: ","))]\(resume)}")
    }

    /// Stops or resumes reading.
    func setReading(_ value: Bool) {
        reading.withLockedValue { $0 = value }
    }

    /// The next message other than a heartbeat; nil once the socket closed.
    func nextMessage() async -> SSEEvent? {
        while true {
            let (message, closed) = received.withLockedValue { state -> (SSEEvent?, Bool) in
                while state.cursor < state.messages.count {
                    let message = state.messages[state.cursor]
                    state.cursor += 1
                    if message.event != "heartbeat" { return (message, false) }
                }
                return (nil, state.closed)
            }
            if let message { return message }
            if closed || Task.isCancelled { return nil }
            try? await Task.sleep(for: .milliseconds(2))
        }
    }

    /// The heartbeats received so far.
    var heartbeats: Int { received.withLockedValue { state in state.messages.count { $0.event == "heartbeat" } } }

    /// Whether the server closed the socket.
    var isClosed: Bool { received.withLockedValue { $0.closed } }

    func close() async {
        outgoing.finish()
        await task.value
    }
}
