import Foundation
import Hummingbird

/// Writes mailbox messages as Server-Sent Events. The JSON of each value is written as
/// the fetch encoded it, one shared buffer for every subscriber; only the few bytes
/// around it are the connection's own.
///
/// One message is one write: a `reset` event if the client must start over, one `update`
/// event with the values of all its subscriptions that changed (so that a page never shows
/// values of two commits side by side), then an `error` event for each failed one. All
/// carry the same id.
struct EventStreamEncoder {
    var epoch: String

    func buffers(for message: MailboxState.Message) -> [ByteBuffer] {
        guard let sequence = message.sequence else {
            return [ByteBuffer(string: ": heartbeat\n\n")]
        }
        let id = LiveEventID(epoch: epoch, sequence: sequence)
        var buffers: [ByteBuffer] = []
        if message.reset {
            buffers.append(ByteBuffer(string: "event: reset\nid: \(id)\ndata: {\"epoch\":\(Self.json(epoch)),\"seq\":\(sequence)}\n\n"))
        }
        let values = message.entries.compactMap { entry -> (Int, ByteBuffer, Int)? in
            guard case .value(let json) = entry.outcome else { return nil }
            return (entry.index, json, entry.skipped)
        }
        if !values.isEmpty {
            var head = "event: update\nid: \(id)\ndata: {\"seq\":\(sequence),\"values\":{"
            for (position, (index, json, _)) in values.enumerated() {
                head += position == 0 ? "\"\(index)\":" : ",\"\(index)\":"
                buffers.append(ByteBuffer(string: head))
                buffers.append(json)
                head = ""
            }
            var tail = "}"
            let skipped = values.filter { $0.2 > 0 }
            if !skipped.isEmpty {
                tail += ",\"skipped\":{" + skipped.map { "\"\($0.0)\":\($0.2)" }.joined(separator: ",") + "}"
            }
            buffers.append(ByteBuffer(string: tail + "}\n\n"))
        }
        for entry in message.entries {
            guard case .failure(let description) = entry.outcome else { continue }
            buffers.append(ByteBuffer(string: "event: error\nid: \(id)\ndata: {\"q\":\(entry.index),\"seq\":\(sequence),\"error\":\(Self.json(description))}\n\n"))
        }
        return buffers
    }

    /// A JSON string literal: no raw line break, which would end an SSE data line.
    static func json(_ string: String) -> String {
        let data = (try? JSONEncoder().encode(string)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
