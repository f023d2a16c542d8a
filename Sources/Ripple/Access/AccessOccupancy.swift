/// Whether a connection's queue has accesses submitted and not ended yet, and the work that
/// waits for the end of one of them: a pure state machine (``AccessOccupancy`` runs it).
///
/// Some work must run on a connection soon, but not at once: the check for other
/// processes' commits that a file event asks for (``ExternalChangeMonitor``). While the
/// queue is busy (the process's own transactions, whose commits caused those very events),
/// that work runs at the end of the access under way, on the thread that runs it. A block
/// of its own would need a thread to wake, and the next access of the application would
/// wait for that thread, which on a busy machine may wait for a core (W5b, W8).
struct AccessOccupancyState<Work> {
    /// The accesses submitted to the queue that have not ended.
    private(set) var accessesInFlight = 0
    /// The work that the end of the next access runs, in the order it came.
    private var waiting: [Work] = []

    var waitingCount: Int { waiting.count }

    /// An access is submitted to the queue.
    mutating func accessWillStart() {
        accessesInFlight += 1
    }

    /// An access ended, on the queue: the work it must run now, in order.
    mutating func accessDidEnd() -> [Work] {
        assert(accessesInFlight > 0, "an access ended that did not start")
        accessesInFlight -= 1
        guard !waiting.isEmpty else { return [] }
        defer { waiting = [] }
        return waiting
    }

    /// Keeps `work` for the end of an access in flight, and returns true; returns false
    /// when no access is in flight: the caller must then run the work in an access of its
    /// own. (An access in flight has not reached `accessDidEnd()` yet: it will run the
    /// work, so nothing kept is ever left behind.)
    mutating func keepForEndOfAccess(_ work: Work) -> Bool {
        guard accessesInFlight > 0 else { return false }
        waiting.append(work)
        return true
    }
}

/// ``AccessOccupancyState`` behind a lock: kept by the writer's ``SerializedDatabase``,
/// told of each access it runs (`sync`, `async`), and asked by work that may wait for the
/// end of the access under way.
final class AccessOccupancy: Sendable {
    typealias Work = @Sendable (Database) -> Void

    private let state = LockedState(AccessOccupancyState<Work>())

    func accessWillStart() {
        state.withLock { $0.accessWillStart() }
    }

    /// The work to run now, at the end of an access, on the queue.
    func accessDidEnd() -> [Work] {
        state.withLock { $0.accessDidEnd() }
    }

    /// See ``AccessOccupancyState/accessesInFlight``.
    var accessesInFlight: Int {
        state.withLock { $0.accessesInFlight }
    }

    /// See ``AccessOccupancyState/waitingCount``.
    var waitingCount: Int {
        state.withLock { $0.waitingCount }
    }

    /// See ``AccessOccupancyState/keepForEndOfAccess(_:)``.
    func keepForEndOfAccess(_ work: @escaping Work) -> Bool {
        state.withLock { $0.keepForEndOfAccess(work) }
    }
}
