import Hummingbird

/// The result of one fetch of a shared query, encoded once for all its subscribers.
enum LiveOutcome: Equatable, Sendable {
    /// The value's JSON.
    case value(ByteBuffer)
    /// The fetch failed: what the `error` event says.
    case failure(String)
}

/// What one connection is sent after a round: the outcomes of its subscriptions whose
/// values it has not seen, all current at `sequence`.
struct LiveBatch: Equatable, Sendable {
    struct Entry: Equatable, Sendable {
        /// The subscription's position in the connection's URL.
        var index: Int
        var outcome: LiveOutcome
    }

    var sequence: UInt64
    /// Whether the client must first forget what it had (another epoch).
    var reset: Bool
    var entries: [Entry]
}
