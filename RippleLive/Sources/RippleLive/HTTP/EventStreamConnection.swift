import Hummingbird
import ServiceLifecycle

/// The stream of one connection: takes messages from its mailbox and writes them at the
/// client's pace; the hub's watchdog posts heartbeats to it. A client that reads nothing
/// for the stall timeout is closed by the connection's channel (``LiveServerChannel``), or
/// else by the hub's watchdog, which then ends the task that writes. Nothing here holds
/// the hub's state: a slow client slows only itself.
enum EventStreamConnection {
    struct Stalled: Error, CustomStringConvertible {
        var description: String { "the client read nothing for longer than the stall timeout" }
    }

    static func run(
        hub: LiveHub,
        subscriptions: Handoff<[(index: Int, key: SharedQueryKey, job: LiveFetch)]>,
        plan: ResumePlan,
        writer: inout any ResponseBodyWriter,
        reauthorize: (@Sendable () async throws -> Void)? = nil
    ) async throws {
        // Taken, not kept: the registry holds what the connection subscribes to.
        let (id, mailbox) = hub.connect(subscriptions.take() ?? [], plan: plan)
        defer { hub.disconnect(id) }
        let encoder = EventStreamEncoder(epoch: hub.epoch)
        // The response's head goes with this first comment: the client sees the stream open.
        try await writer.write(ByteBuffer(string: ": open\n\n"))
        if reauthorize == nil, LiveServerChannelMarker.closesStalledConnections {
            // The channel closes a stalled client (`LiveServerChannel`), which fails the
            // write under way: this task writes, and no other watches it.
            try await withGracefulShutdownHandler {
                try await mailbox.deliver { try await writer.write(encoder.event(for: $0)) }
            } onGracefulShutdown: {
                mailbox.finish()
            }
            try await writer.finish(nil)
            return
        }
        let box = WriterBox(writer)
        // A server that shuts down gracefully waits for its responses: the stream ends then.
        try await withGracefulShutdownHandler {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    defer { mailbox.end(.aTaskEnded) }
                    try await mailbox.deliver { try await box.writer.write(encoder.event(for: $0)) }
                }
                if let reauthorize {
                    // Ends the connection when a subscription is refused at its expiry.
                    group.addTask {
                        defer { mailbox.end(.aTaskEnded) }
                        try await reauthorize()
                    }
                }
                // The first to end (the mailbox finished, a failed write, a refusal), or a
                // stall that the hub's watchdog found, ends all.
                let ending = await mailbox.ended()
                group.cancelAll()
                if ending == .stalled { throw Stalled() }
                try await group.next()
            }
        } onGracefulShutdown: {
            mailbox.finish()
        }
        let finished = box.writer
        try await finished.finish(nil)
    }
}

/// The response's writer, handed to the task that writes.
final class WriterBox: @unchecked Sendable {  // one task at a time: the writing child, then the parent once the group ended
    var writer: any ResponseBodyWriter

    init(_ writer: any ResponseBodyWriter) {
        self.writer = writer
    }
}
