import Hummingbird

/// Writes mailbox messages as WebSocket text messages, one JSON object each, with the
/// fields of the Server-Sent Events: `{"type":"update","id":"<epoch>-<seq>","seq":…,
/// "values":{…},"skipped":{…}}`, `{"type":"error",…}`, `{"type":"reset",…}`, and
/// `{"type":"heartbeat"}`. All the messages of one round carry the same id.
struct WebSocketEncoder {
    var epoch: String

    func texts(for message: MailboxState.Message) -> [String] {
        guard let sequence = message.sequence else {
            return [#"{"type":"heartbeat"}"#]
        }
        let id = LiveEventID(epoch: epoch, sequence: sequence)
        func fields(_ type: String) -> String { "\"type\":\"\(type)\",\"id\":\"\(id)\"," }
        var texts: [String] = []
        if message.reset {
            texts.append(LiveMessageJSON.reset(epoch: epoch, sequence: sequence, fields: fields("reset")))
        }
        if let buffers = LiveMessageJSON.update(sequence: sequence, entries: message.entries, fields: fields("update")) {
            // A text message is one buffer: the values are copied into it.
            texts.append(buffers.map { String(buffer: $0) }.joined())
        }
        texts += LiveMessageJSON.errors(sequence: sequence, entries: message.entries, fields: fields("error"))
        return texts
    }

    /// `{"type":"refused","status":404,"error":"…","subscription":1}`: a message the
    /// server did not act on; the socket stays open.
    static func refusal(_ error: LiveRequestError) -> String {
        let subscription = error.subscription.map { ",\"subscription\":\($0)" } ?? ""
        return "{\"type\":\"refused\",\"status\":\(error.status.code),\"error\":\(LiveMessageJSON.string(error.message))\(subscription)}"
    }
}
