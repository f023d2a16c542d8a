import Hummingbird
import HummingbirdWebSocket

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
        authorize: @escaping @Sendable (Request, Context, LiveSubscription) async throws -> LiveScope
    ) async throws {
        let (id, mailbox) = hub.open()
        defer { hub.disconnect(id) }
        let encoder = WebSocketEncoder(epoch: hub.epoch)
        let configuration = hub.configuration
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                while let message = await mailbox.next() {
                    mailbox.writeBegan(now: .now)
                    for text in encoder.texts(for: message) {
                        try await outbound.write(.text(text))
                    }
                    mailbox.writeEnded(now: .now)
                }
            }
            group.addTask {
                try await EventStreamConnection.watch(mailbox, configuration)
            }
            group.addTask {
                var subscribed: Set<Int> = []
                for try await message in inbound.messages(maxSize: 1 << 20) {
                    do throws(LiveRequestError) {
                        guard case .text(let text) = message else {
                            throw LiveRequestError(.badRequest, "messages are JSON text")
                        }
                        switch try LiveClientMessage.parse(text) {
                        case .subscribe(let specs, let lastEventID):
                            if let taken = specs.first(where: { subscribed.contains($0.id) }) {
                                throw LiveRequestError(.conflict, "subscription id \(taken.id) is in use", subscription: taken.id)
                            }
                            let limit = configuration.maximumSubscriptionsPerConnection
                            guard subscribed.count + specs.count <= limit else {
                                throw LiveRequestError(.badRequest, "more than the \(limit) subscriptions one connection may carry")
                            }
                            let subscriptions = try await SubscriptionResolver.resolve(specs, request: request, context: context, hub: hub, authorize: authorize)
                            let plan = ResumePlan(lastEventID: lastEventID, epoch: hub.epoch, latest: hub.commitSequence)
                            subscribed.formUnion(specs.map(\.id))
                            hub.subscribe(id, subscriptions, plan: plan)
                        case .unsubscribe(let ids):
                            subscribed.subtract(ids)
                            hub.unsubscribe(id, ids)
                        }
                    } catch {
                        try await outbound.write(.text(WebSocketEncoder.refusal(error)))
                    }
                }
            }
            // The first to end (the client closed, a failed write, a stall) ends all.
            defer { group.cancelAll() }
            try await group.next()
        }
    }
}
