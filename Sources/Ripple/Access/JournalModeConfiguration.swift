extension Configuration {
    /// How a ``DatabaseQueue`` sets up the journal mode (see `Configuration.journalMode`).
    public enum JournalModeConfiguration: Sendable {
        /// The journal mode is left as it is (a ``DatabasePool`` still uses WAL).
        case `default`
        /// The database is switched to the WAL journal mode.
        case wal
    }
}

extension Database {
    /// Switches the database to the WAL journal mode, with `synchronous = NORMAL`, as WAL
    /// databases usually run. Throws when SQLite keeps another mode (an in-memory
    /// database).
    func setUpWALMode() throws {
        let mode = try String.fetchOne(self, sql: "PRAGMA journal_mode = WAL")
        guard mode?.lowercased() == "wal" else {
            throw DatabaseError(message: "could not activate WAL mode at \(path) (journal mode: \(mode ?? "unknown"))")
        }
        try execute(sql: "PRAGMA synchronous = NORMAL")
    }
}
