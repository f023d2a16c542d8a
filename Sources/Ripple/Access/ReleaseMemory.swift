import CSQLite

extension Database {
    /// Frees as much of the connection's memory (page cache, mostly) as SQLite can, and
    /// forgets what the connection knows of the schema (read again when needed).
    public func releaseMemory() {
        guard let connection = sqliteConnection else { return }
        sqlite3_db_release_memory(connection)
        clearSchemaCache()
    }
}

extension DatabaseQueue {
    /// Frees as much memory as SQLite can (see `Database.releaseMemory()`). Waits for the
    /// current access to end.
    public func releaseMemory() {
        writer.sync { $0.releaseMemory() }
    }
}

extension DatabasePool {
    /// Frees as much memory as SQLite can, in the writer and in every reader (see
    /// `Database.releaseMemory()`). Waits for the current accesses to end; reader
    /// connections stay open.
    public func releaseMemory() {
        writer.sync { $0.releaseMemory() }
        readers.barrier { readers in
            for reader in readers { reader.sync { $0.releaseMemory() } }
        }
    }
}
