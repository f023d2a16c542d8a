import CSQLite
import Foundation

/// What lets any thread interrupt a connection's running statements: its SQLite handle,
/// read and cleared under a lock, so that `sqlite3_interrupt` never runs on a connection
/// that is closing or closed (which SQLite forbids).
final class InterruptHandle: @unchecked Sendable {  // `connection` is only read and written under `lock`
    private let lock = NSLock()
    private var connection: OpaquePointer?

    init(_ connection: OpaquePointer) {
        self.connection = connection
    }

    /// Makes the statements of the connection that run now stop with `SQLITE_INTERRUPT`
    /// (see `sqlite3_interrupt`). Does nothing once the connection is closed.
    func interrupt() {
        lock.lock()
        defer { lock.unlock() }
        if let connection { sqlite3_interrupt(connection) }
    }

    /// Called before the connection closes.
    func connectionWillClose() {
        lock.lock()
        connection = nil
        lock.unlock()
    }
}
