import CSQLite

/// What lets any thread interrupt a connection's running statements: its SQLite handle,
/// read and cleared under a lock, so that `sqlite3_interrupt` never runs on a connection
/// that is closing or closed (which SQLite forbids).
final class InterruptHandle: Sendable {
    private let connection: LockedState<OpaquePointer?>

    init(_ connection: OpaquePointer) {
        self.connection = LockedState(connection)
    }

    /// Makes the statements of the connection that run now stop with `SQLITE_INTERRUPT`
    /// (see `sqlite3_interrupt`). Does nothing once the connection is closed.
    func interrupt() {
        connection.withLock { connection in
            if let connection { sqlite3_interrupt(connection) }
        }
    }

    /// Called before the connection closes.
    func connectionWillClose() {
        connection.withLock { $0 = nil }
    }
}
