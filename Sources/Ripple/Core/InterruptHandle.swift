import CRippleSupport
import CSQLite

/// What lets any thread interrupt a connection's running statements, and suspend it: its
/// SQLite handle, read and cleared under a lock, so that `sqlite3_interrupt` never runs on
/// a connection that is closing or closed (which SQLite forbids).
final class InterruptHandle: Sendable {
    private struct State {
        var connection: OpaquePointer?
        /// The number of the next suspension (see `suspensionNumber`).
        var nextSuspension = 1
    }

    private let state: LockedState<State>

    /// 0 while the connection is not suspended; otherwise a number that each suspension
    /// gets anew (so that what the connection learns during one suspension, its journal
    /// mode, is not used in the next). Written under the lock, read by the connection's
    /// thread without it, before each statement.
    private let suspension = _AtomicWord()

    init(_ connection: OpaquePointer) {
        self.state = LockedState(State(connection: connection))
    }

    /// Makes the statements of the connection that run now stop with `SQLITE_INTERRUPT`
    /// (see `sqlite3_interrupt`). Does nothing once the connection is closed.
    func interrupt() {
        state.withLock { state in
            if let connection = state.connection { sqlite3_interrupt(connection) }
        }
    }

    /// Suspends the connection: the statement it runs is interrupted, and until
    /// ``resume()``, the statements that could take a lock on the database fail (see
    /// `Database.checkSuspension`).
    func suspend() {
        state.withLock { state in
            guard suspension.load() == 0 else { return }
            suspension.store(state.nextSuspension)
            state.nextSuspension += 1
            // An interrupted statement may end the transaction and release its lock; the
            // connection rolls back what remains at its next statement.
            if let connection = state.connection { sqlite3_interrupt(connection) }
        }
    }

    func resume() {
        state.withLock { _ in suspension.store(0) }
    }

    /// 0 when the connection is not suspended, else the number of the suspension.
    @inline(__always)
    var suspensionNumber: Int { suspension.load() }

    /// Called before the connection closes.
    func connectionWillClose() {
        state.withLock { $0.connection = nil }
    }
}
