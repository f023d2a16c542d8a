import Hummingbird
import HummingbirdWebSocket
import NIOConcurrencyHelpers
import ServiceLifecycle

/// One WebSocket of live queries: subscriptions come and go with the client's messages,
/// values go out at the client's pace, as on an event stream (the same mailbox, the same
/// heartbeats and stall timeout). A refused message is answered on the socket, which
/// stays open.
enum WebSocketConnection {
    static func run<Context: RequestContext>(
        hub: LiveHub,
        request: Request,
        context: Context,
        inbound: WebSocketInboundStream,
        outbound: WebSocketOutboundWriter,
        authorize: @escaping @Sendable (Request, Context, LiveSubscription) async throws -> LiveGrant
    ) async throws {
        let (id, mailbox) = hub.open()
        defer { hub.disconnect(id) }
        let encoder = WebSocketEncoder(epoch: hub.epoch)
        let configuration = hub.configuration
        let reauthorization = Reauthorization()
        let subscribed = NIOLockedValueBox<Set<Int>>([])
        // A server that shuts down gracefully waits for its sockets: this one ends then.
        try await withGracefulShutdownHandler {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    defer { mailbox.end(.aTaskEnded) }
                    try await mailbox.deliver { message in
                        for text in encoder.texts(for: message) {
                            try await outbound.write(.text(text))
                        }
                    }
                }
                group.addTask {
                    defer { mailbox.end(.aTaskEnded) }
                    // Polls for grants added since, at most once a second.
                    try await reauthorization.watch(request: request, context: context, authorize: authorize, poll: .seconds(1)) { index, error in
                        subscribed.withLockedValue { _ = $0.remove(index) }
                        hub.unsubscribe(id, [index])
                        try await outbound.write(.text(WebSocketEncoder.refusal(error)))
                    }
                }
                group.addTask {
                    defer { mailbox.end(.aTaskEnded) }
                    for try await message in inbound.messages(maxSize: 1 << 20) {
                        do throws(LiveRequestError) {
                            guard case .text(let text) = message else {
                                throw LiveRequestError(.badRequest, "messages are JSON text")
                            }
                            switch try LiveClientMessage.parse(text) {
                            case .subscribe(let specs, let lastEventID):
                                let inUse = subscribed.withLockedValue { $0 }
                                if let taken = specs.first(where: { inUse.contains($0.id) }) {
                                    throw LiveRequestError(.conflict, "subscription id \(taken.id) is in use", subscription: taken.id)
                                }
                                let limit = configuration.maximumSubscriptionsPerConnection
                                guard inUse.count + specs.count <= limit else {
                                    throw LiveRequestError(.badRequest, "more than the \(limit) subscriptions one connection may carry")
                                }
                                let resolved = try await SubscriptionResolver.resolve(specs, request: request, context: context, hub: hub, authorize: authorize)
                                let plan = ResumePlan(lastEventID: lastEventID, epoch: hub.epoch, latest: hub.commitSequence)
                                subscribed.withLockedValue { $0.formUnion(specs.map(\.id)) }
                                reauthorization.add(resolved.expiring)
                                hub.subscribe(id, resolved.subscriptions, plan: plan)
                            case .unsubscribe(let ids):
                                subscribed.withLockedValue { $0.subtract(ids) }
                                reauthorization.remove(ids)
                                hub.unsubscribe(id, ids)
                            }
                        } catch {
                            try await outbound.write(.text(WebSocketEncoder.refusal(error)))
                        }
                    }
                }
                // The first to end (the client closed, a failed write, a shutdown), or a stall
                // that the hub's watchdog found, ends all.
                let ending = await mailbox.ended()
                group.cancelAll()
                if ending == .stalled { throw EventStreamConnection.Stalled() }
                try await group.next()
            }
        } onGracefulShutdown: {
            mailbox.finish()
        }
    }
}
