/// The id of a Server-Sent Event: the server's epoch and a commit sequence, written
/// `<epoch>-<sequence>` (`1f3a9c07b2d4e811-42`).
///
/// The epoch is drawn at random when a ``LiveHub`` starts, so that a client that reconnects
/// to a restarted server (or to another process) is told to start over: sequences of two
/// epochs cannot be compared.
public struct LiveEventID: Hashable, Sendable, CustomStringConvertible {
    /// The epoch of the hub that sent the event.
    public var epoch: String
    /// The commit sequence the event's values are current at.
    public var sequence: UInt64

    /// An event id of `epoch` at `sequence`.
    public init(epoch: String, sequence: UInt64) {
        self.epoch = epoch
        self.sequence = sequence
    }

    /// Parses `<epoch>-<sequence>`; nil for anything else (a client's own id, garbage).
    public init?(parsing text: some StringProtocol) {
        guard let dash = text.lastIndex(of: "-") else { return nil }
        let epoch = text[..<dash]
        let digits = text[text.index(after: dash)...]
        guard !epoch.isEmpty, epoch.allSatisfy(\.isHexDigit),
              !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }),
              let sequence = UInt64(digits) else { return nil }
        self.init(epoch: String(epoch), sequence: sequence)
    }

    /// `<epoch>-<sequence>`.
    public var description: String { "\(epoch)-\(sequence)" }
}
