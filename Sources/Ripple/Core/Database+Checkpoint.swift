import CSQLite

extension Database {
    /// How ``checkpoint(_:on:)`` copies the write-ahead log into the database file: the
    /// modes of `sqlite3_wal_checkpoint_v2`.
    public enum CheckpointMode: CInt, Sendable {
        /// As many frames as possible without waiting for readers or writers.
        case passive = 0
        /// Waits for writers, then copies all frames; readers may go on.
        case full = 1
        /// `full`, then waits for readers so that the next writer restarts the log.
        case restart = 2
        /// `restart`, and truncates the log file to zero bytes.
        case truncate = 3
    }

    /// Runs a checkpoint of a database in WAL mode; returns the frames in the log and the
    /// frames copied (both -1 when the database is not in WAL mode).
    ///
    /// ```swift
    /// try dbPool.writeWithoutTransaction { db in
    ///     try db.checkpoint(.truncate)
    /// }
    /// ```
    ///
    /// Observations keep seeing other connections' commits across a checkpoint: a log that
    /// restarts is read again from its start.
    ///
    /// - parameter kind: How the log is copied (`.passive` waits for nothing).
    /// - parameter dbName: The schema (`"main"`, or an attached database); nil for all.
    @discardableResult
    public func checkpoint(_ kind: CheckpointMode = .passive, on dbName: String? = "main") throws
        -> (walFrameCount: Int, checkpointedFrameCount: Int)
    {
        try checkOpen()
        var walFrameCount: CInt = -1
        var checkpointedFrameCount: CInt = -1
        let code = sqlite3_wal_checkpoint_v2(sqliteConnection, dbName, kind.rawValue, &walFrameCount, &checkpointedFrameCount)
        guard code == SQLITE_OK else { throw DatabaseError(connection: sqliteConnection, code: code) }
        return (Int(walFrameCount), Int(checkpointedFrameCount))
    }
}
