/// What one connection has not been sent yet: the latest outcome of each subscription,
/// never more. A batch that comes while the previous one still waits replaces its
/// outcomes, and each replaced outcome counts as skipped, so that a slow client holds a
/// bounded amount of memory and gets the latest values when it catches up.
///
/// A plain value whose events return what the mailbox must do; the class ``Mailbox``
/// performs them.
struct MailboxState {
    /// One message for the connection: everything that waited, current at `sequence`.
    struct Message: Equatable {
        var sequence: UInt64?
        var reset: Bool
        var entries: [Entry]
        /// Nothing to say: a comment that keeps proxies from closing an idle stream and
        /// finds out a client that left.
        var isHeartbeat: Bool { sequence == nil && !reset && entries.isEmpty }

        struct Entry: Equatable {
            var index: Int
            var outcome: LiveOutcome
            /// How many outcomes of this subscription were replaced before being sent.
            var skipped: Int
        }
    }

    private var sequence: UInt64?
    private var reset = false
    /// By subscription position, in position order when taken.
    private var pending: [Int: Message.Entry] = [:]
    private var heartbeat = false
    private var consumerWaits = false
    private(set) var isFinished = false
    /// Outcomes replaced before being sent, over the connection's life.
    private(set) var skippedTotal = 0

    enum PostAction: Equatable {
        case none
        /// The consumer waits: hand it this message.
        case resume(Message)
    }

    enum TakeAction: Equatable {
        case message(Message)
        /// Nothing waits: the consumer suspends until a post.
        case suspend
        case finished
    }

    /// A round's batch for this connection.
    mutating func post(_ batch: LiveBatch) -> PostAction {
        guard !isFinished, batch.reset || !batch.entries.isEmpty else { return .none }
        sequence = batch.sequence
        if batch.reset {
            // What waited belongs to the old epoch: the batch that resets replaces it all.
            reset = true
            pending.removeAll()
        }
        for entry in batch.entries {
            let skipped = pending[entry.index].map { $0.skipped + 1 } ?? 0
            if pending[entry.index] != nil { skippedTotal += 1 }
            pending[entry.index] = Message.Entry(index: entry.index, outcome: entry.outcome, skipped: skipped)
        }
        return wake()
    }

    /// The client left the subscriptions `ids`: what waits for them is not sent.
    mutating func forget(_ ids: [Int]) {
        for id in ids {
            pending.removeValue(forKey: id)
        }
    }

    /// Asks for a heartbeat, sent if nothing else waits.
    mutating func postHeartbeat() -> PostAction {
        guard !isFinished else { return .none }
        heartbeat = true
        return wake()
    }

    /// The consumer wants the next message.
    mutating func take() -> TakeAction {
        if let message = drain() { return .message(message) }
        if isFinished { return .finished }
        consumerWaits = true
        return .suspend
    }

    /// The connection ends: a waiting consumer is told so, and later posts are dropped.
    mutating func finish() -> Bool {
        isFinished = true
        pending.removeAll()
        let resume = consumerWaits
        consumerWaits = false
        return resume
    }

    private mutating func wake() -> PostAction {
        guard consumerWaits, let message = drain() else { return .none }
        consumerWaits = false
        return .resume(message)
    }

    private mutating func drain() -> Message? {
        if pending.isEmpty && !reset {
            guard heartbeat else { return nil }
            heartbeat = false
            return Message(sequence: nil, reset: false, entries: [])
        }
        let message = Message(
            sequence: sequence,
            reset: reset,
            entries: pending.values.sorted { $0.index < $1.index })
        sequence = nil
        reset = false
        pending.removeAll()
        heartbeat = false
        return message
    }
}
