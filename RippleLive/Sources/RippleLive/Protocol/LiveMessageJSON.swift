import Foundation
import Hummingbird

/// The JSON objects of the protocol's messages, the same for both transports. A value's
/// JSON is the buffer its fetch encoded, shared by every subscriber; only the few bytes
/// around it are the connection's own. `fields` open each object: the WebSocket transport
/// puts the message's type and id there (`"type":"update","id":"…",`), Server-Sent Events
/// carry them on lines of their own.
enum LiveMessageJSON {
    /// `{"seq":42,"values":{"0":…,"2":…},"skipped":{"0":3}}` for the values among
    /// `entries`, in buffers; nil when none is a value.
    static func update(sequence: UInt64, entries: [MailboxState.Message.Entry], fields: String = "") -> [ByteBuffer]? {
        let values = entries.compactMap { entry -> (index: Int, json: ByteBuffer, skipped: Int)? in
            guard case .value(let json) = entry.outcome else { return nil }
            return (entry.index, json, entry.skipped)
        }
        guard !values.isEmpty else { return nil }
        var buffers: [ByteBuffer] = []
        var head = "{\(fields)\"seq\":\(sequence),\"values\":{"
        for (position, value) in values.enumerated() {
            head += position == 0 ? "\"\(value.index)\":" : ",\"\(value.index)\":"
            buffers.append(ByteBuffer(string: head))
            buffers.append(value.json)
            head = ""
        }
        var tail = "}"
        let skipped = values.filter { $0.skipped > 0 }
        if !skipped.isEmpty {
            tail += ",\"skipped\":{" + skipped.map { "\"\($0.index)\":\($0.skipped)" }.joined(separator: ",") + "}"
        }
        buffers.append(ByteBuffer(string: tail + "}"))
        return buffers
    }

    /// `{"q":1,"seq":42,"error":"…"}` for each failure among `entries`.
    static func errors(sequence: UInt64, entries: [MailboxState.Message.Entry], fields: String = "") -> [String] {
        entries.compactMap { entry in
            guard case .failure(let description) = entry.outcome else { return nil }
            return "{\(fields)\"q\":\(entry.index),\"seq\":\(sequence),\"error\":\(string(description))}"
        }
    }

    /// `{"epoch":"…","seq":42}`.
    static func reset(epoch: String, sequence: UInt64, fields: String = "") -> String {
        "{\(fields)\"epoch\":\(string(epoch)),\"seq\":\(sequence)}"
    }

    /// A JSON string literal: no raw line break, which would end an SSE data line.
    static func string(_ string: String) -> String {
        let data = (try? JSONEncoder().encode(string)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
