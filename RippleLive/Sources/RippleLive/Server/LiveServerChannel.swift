import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// A server's connections, tuned for many idle live subscribers: wraps the channel of a
/// Hummingbird server (`HTTP1Channel`, or one that upgrades WebSockets).
///
/// - Receive buffers start at 256 bytes rather than 2 KB (they grow with what a client
///   sends): an idle event stream keeps one.
/// - A connection whose client reads nothing is closed by the channel itself, after the
///   hub's ``LiveConfiguration/stallTimeout`` without room for a write, so that an event
///   stream writes from its request's own task, without a second task to watch it. This
///   holds for every route of the server: a large download to a client that stops reading
///   for that long is cut too.
///
/// ```swift
/// let app = Application(router: router, server: .liveHTTP1(hub))
/// ```
///
/// With any other server, live queries work the same, and each event stream holds one more
/// task (Benchmarks/README.md, "Live queries", measures both).
public struct LiveServerChannel<Inner: ServerChildChannel>: ServerChildChannel {
    public typealias Value = Inner.Value

    private let inner: Inner
    private let stallTimeout: TimeAmount

    /// Connections of `inner`, for the live queries of `hub`.
    public init(_ inner: Inner, hub: LiveHub) {
        self.inner = inner
        let (seconds, attoseconds) = hub.configuration.stallTimeout.components
        self.stallTimeout = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    public func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let stallTimeout = stallTimeout
        return channel.eventLoop.makeCompletedFuture {
            try channel.syncOptions?.setOption(
                ChannelOptions.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 256, maximum: 65536))
            try channel.pipeline.syncOperations.addHandler(StalledWriteCloser(timeout: stallTimeout))
        }.flatMap {
            inner.setup(channel: channel, logger: logger)
        }
    }

    public func handle(value: Value, logger: Logger) async {
        await LiveServerChannelMarker.$closesStalledConnections.withValue(true) {
            await inner.handle(value: value, logger: logger)
        }
    }
}

/// Whether the request runs on a connection of a ``LiveServerChannel``, which closes a
/// stalled client by itself.
enum LiveServerChannelMarker {
    @TaskLocal static var closesStalledConnections = false
}

extension HTTPServerBuilder {
    /// An HTTP/1.1 server tuned for live queries (see ``LiveServerChannel``).
    public static func liveHTTP1(_ hub: LiveHub, configuration: HTTP1Channel.Configuration = .init()) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            LiveServerChannel(HTTP1Channel(responder: responder, configuration: configuration), hub: hub)
        }
    }
}

/// Closes the connection once it stayed unwritable for `timeout`: NIO stops taking writes
/// while it holds more than its high water mark of bytes the client did not read, and
/// takes them again once it read most of them.
final class StalledWriteCloser: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let timeout: TimeAmount
    private var closing: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            closing?.cancel()
            closing = nil
        } else if closing == nil {
            let channel = context.channel
            closing = context.eventLoop.scheduleTask(in: timeout) {
                channel.close(promise: nil)
            }
        }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        closing?.cancel()
        closing = nil
        context.fireChannelInactive()
    }
}
