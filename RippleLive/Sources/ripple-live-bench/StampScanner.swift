import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// What the connections of one client process heard: latencies, in nanoseconds, from
/// the stamp of each event's newest tick to the moment the event's last byte arrived.
final class ReceivedStamps: Sendable {
    private struct State {
        var latencies: [Int64] = []
        var readyConnections = 0
    }

    private let state = NIOLockedValueBox(State())

    func record(latency: Int64, first: Bool) {
        state.withLockedValue { state in
            if first { state.readyConnections += 1 } else { state.latencies.append(latency) }
        }
    }

    /// Connections that got their first value.
    var readyConnections: Int { state.withLockedValue { $0.readyConnections } }

    var count: Int { state.withLockedValue { $0.latencies.count } }

    /// The latencies recorded since the previous call.
    func take() -> [Int64] {
        state.withLockedValue { state in
            defer { state.latencies = [] }
            return state.latencies
        }
    }
}

/// Reads an event stream as it comes and finds, in each event, the first `"stamp":`
/// number: the newest tick's (the query orders them newest first). No JSON decoding: the
/// client must cost as little as possible beside the server on a small machine.
final class StampScanner: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart

    private static let pattern = Array(#""stamp":"#.utf8)
    private let stamps: ReceivedStamps
    private var matched = 0
    private var stamp: Int64?
    private var readingDigits = false
    private var lastWasNewline = false
    private var gotFirst = false

    init(stamps: ReceivedStamps) {
        self.stamps = stamps
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .body(let buffer) = unwrapInboundIn(data) else { return }
        buffer.withUnsafeReadableBytes { bytes in
            for byte in bytes { scan(byte) }
        }
    }

    private func scan(_ byte: UInt8) {
        if readingDigits {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                stamp = (stamp ?? 0) * 10 + Int64(byte - UInt8(ascii: "0"))
                return
            }
            readingDigits = false
        }
        if byte == UInt8(ascii: "\n") {
            // A blank line ends an event.
            if lastWasNewline { endEvent() }
            lastWasNewline = true
            matched = 0
            return
        }
        lastWasNewline = false
        guard stamp == nil else { return }
        if byte == Self.pattern[matched] {
            matched += 1
            if matched == Self.pattern.count {
                matched = 0
                stamp = 0
                readingDigits = true
            }
        } else {
            matched = byte == Self.pattern[0] ? 1 : 0
        }
    }

    private func endEvent() {
        guard let stamp else { return }
        stamps.record(latency: monotonicNanoseconds() - stamp, first: !gotFirst)
        gotFirst = true
        self.stamp = nil
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
