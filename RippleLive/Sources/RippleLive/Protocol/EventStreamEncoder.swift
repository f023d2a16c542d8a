import Hummingbird

/// Writes mailbox messages as Server-Sent Events (the JSON of each is
/// ``LiveMessageJSON``'s, whose values are the buffers the fetches encoded).
///
/// One message is one write: a `reset` event if the client must start over, one `update`
/// event with the values of all its subscriptions that changed (so that a page never shows
/// values of two commits side by side), then an `error` event for each failed one. All
/// carry the same id.
struct EventStreamEncoder {
    var epoch: String

    /// The events of `message` in one buffer, written as one chunk of the response: a
    /// chunk per buffer would cost each its framing and its pass through the channel's
    /// pipeline, far more than copying a value of a few kilobytes.
    func event(for message: MailboxState.Message) -> ByteBuffer {
        let buffers = buffers(for: message)
        var event = ByteBuffer()
        event.reserveCapacity(buffers.reduce(0) { $0 + $1.readableBytes })
        for var buffer in buffers {
            event.writeBuffer(&buffer)
        }
        return event
    }

    func buffers(for message: MailboxState.Message) -> [ByteBuffer] {
        guard let sequence = message.sequence else {
            return [ByteBuffer(string: ": heartbeat\n\n")]
        }
        let id = LiveEventID(epoch: epoch, sequence: sequence)
        var buffers: [ByteBuffer] = []
        if message.reset {
            buffers.append(ByteBuffer(string: "event: reset\nid: \(id)\ndata: \(LiveMessageJSON.reset(epoch: epoch, sequence: sequence))\n\n"))
        }
        if let update = LiveMessageJSON.update(sequence: sequence, entries: message.entries) {
            buffers.append(ByteBuffer(string: "event: update\nid: \(id)\ndata: "))
            buffers += update
            buffers.append(ByteBuffer(string: "\n\n"))
        }
        for error in LiveMessageJSON.errors(sequence: sequence, entries: message.entries) {
            buffers.append(ByteBuffer(string: "event: error\nid: \(id)\ndata: \(error)\n\n"))
        }
        return buffers
    }
}
