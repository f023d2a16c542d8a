import CSQLite

/// SQLite's memory statistics, which Ripple turns off for the process before it opens its
/// first connection (see ``Database/keepSQLiteMemoryStatistics()``).
///
/// The choice is made once: the first connection that opens takes it, under a lock, before
/// SQLite is initialized.
enum SQLiteMemoryStatistics {
    enum Choice {
        /// No connection opened yet; `keep` tells what the application asked for.
        case pending(keep: Bool)
        /// Made: whether the statistics were turned off.
        case made(turnedOff: Bool)
    }

    static let choice = LockedState(Choice.pending(keep: false))

    /// Called before each connection opens: the first one makes the choice.
    static func beforeOpeningConnection() {
        choice.withLock { choice in
            guard case .pending(let keep) = choice else { return }
            // (SQLITE_MISUSE, and nothing turned off, when something else initialized
            // SQLite in this process already.)
            choice = .made(turnedOff: !keep && ripple_sqlite_config_memstatus(0) == SQLITE_OK)
        }
    }

    /// See ``Database/keepSQLiteMemoryStatistics()``.
    static func keep() -> Bool {
        choice.withLock { choice in
            switch choice {
            case .pending:
                choice = .pending(keep: true)
                return true
            case .made(let turnedOff):
                return !turnedOff
            }
        }
    }
}

extension Database {
    /// Keeps SQLite's memory statistics in this process, which Ripple otherwise turns off.
    ///
    /// SQLite's memory statistics (`sqlite3_memory_used()`, `sqlite3_memory_highwater()`,
    /// `sqlite3_status64()`, and the heap limits of `sqlite3_soft_heap_limit64()` and
    /// `sqlite3_hard_heap_limit64()`, which depend on them) make every allocation of every
    /// connection take one process-wide mutex. The writer and the readers of a
    /// ``DatabasePool`` then wait for each other there: an import into a pool while 20 value
    /// observations fetch ran 1.2-1.4x the import alone with the statistics off, 1.5-2.0x
    /// with them on (W8 in `Benchmarks/`, alternating runs). So, before it opens its first
    /// connection, Ripple turns them off for the whole process, as SQLite's documentation
    /// suggests for speed.
    ///
    /// An application that reads those statistics or sets a heap limit calls this method
    /// before it opens its first connection:
    ///
    /// ```swift
    /// Database.keepSQLiteMemoryStatistics()
    /// let dbQueue = try DatabaseQueue(path: "/path/to/database.sqlite")
    /// ```
    ///
    /// If something else initialized SQLite in the process before Ripple's first connection
    /// (another library, a direct call to `sqlite3_open`), the statistics stay as they were.
    ///
    /// - returns: whether the statistics are kept; false when it is too late, because
    ///   Ripple turned them off when it opened its first connection.
    @discardableResult
    public static func keepSQLiteMemoryStatistics() -> Bool {
        SQLiteMemoryStatistics.keep()
    }
}
