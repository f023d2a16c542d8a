/// What a new connection is owed, from its `Last-Event-ID` header and the hub's epoch.
enum ResumePlan: Equatable, Sendable {
    /// No id: every value, as a first connection gets them.
    case fresh
    /// An id of this epoch: only the values that changed after `sequence`.
    case resume(after: UInt64)
    /// An id of another epoch (a restarted server, another process), one from beyond the
    /// latest commit, or one that does not parse: a `reset` event, then every value.
    case reset

    /// - parameter latest: the hub's commit count now: an id beyond it was not sent by
    ///   this hub, and the client's values cannot be trusted.
    init(lastEventID: String?, epoch: String, latest: UInt64) {
        guard let lastEventID, !lastEventID.isEmpty else {
            self = .fresh
            return
        }
        guard let id = LiveEventID(parsing: lastEventID), id.epoch == epoch, id.sequence <= latest else {
            self = .reset
            return
        }
        self = .resume(after: id.sequence)
    }

    /// Whether a value that has been current since `valueSequence` is sent.
    func sends(valueSince valueSequence: UInt64) -> Bool {
        switch self {
        case .fresh, .reset: true
        case .resume(let after): valueSequence > after
        }
    }
}
