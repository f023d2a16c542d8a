import CSQLite

extension Database {
    /// What ``Configuration/BusyMode/callback(_:)`` asks: given the number of tries so far,
    /// whether SQLite tries again.
    public typealias BusyCallback = @Sendable (_ numberOfTries: Int) -> Bool

    /// Copies the content of this database into `destination`, replacing what it held.
    ///
    /// ```swift
    /// try source.read { sourceDb in
    ///     try destination.barrierWriteWithoutTransaction { destinationDb in
    ///         try sourceDb.backup(to: destinationDb)
    ///     }
    /// }
    /// ```
    ///
    /// - parameter destination: the connection that receives the copy.
    /// - parameter pagesPerStep: how many pages each step copies (-1: all in one step).
    /// - parameter progress: called after each step; it may throw to stop the copy.
    public func backup(
        to destination: Database,
        pagesPerStep: CInt = -1,
        progress: ((DatabaseBackupProgress) throws -> Void)? = nil
    ) throws {
        guard let source = sqliteConnection, let target = destination.sqliteConnection else {
            throw DatabaseError.misuse("backup: connection is closed")
        }
        guard let backup = sqlite3_backup_init(target, "main", source, "main") else {
            throw DatabaseError(connection: target, code: sqlite3_errcode(target))
        }
        var finished = false
        defer {
            let code = sqlite3_backup_finish(backup)
            // (An error of a step is thrown by the step; finish reports it again.)
            assert(!finished || code == SQLITE_OK, "sqlite3_backup_finish: \(code)")
        }
        while true {
            let code = sqlite3_backup_step(backup, pagesPerStep)
            let state = DatabaseBackupProgress(
                remainingPageCount: Int(sqlite3_backup_remaining(backup)),
                totalPageCount: Int(sqlite3_backup_pagecount(backup)),
                isCompleted: code == SQLITE_DONE)
            switch code {
            case SQLITE_DONE:
                finished = true
                try progress?(state)
                // The destination's schema changed under its cached statements.
                destination.clearSchemaCache()
                return
            case SQLITE_OK:
                try progress?(state)
            default:
                throw DatabaseError(connection: target, code: code)
            }
        }
    }
}

/// How far a backup went (see `Database.backup(to:pagesPerStep:progress:)`).
public struct DatabaseBackupProgress: Sendable, Hashable {
    /// The pages that remain to be copied.
    public let remainingPageCount: Int
    /// The pages of the source database.
    public let totalPageCount: Int
    /// The pages copied so far.
    public var completedPageCount: Int { totalPageCount - remainingPageCount }
    /// Whether the backup is complete.
    public let isCompleted: Bool
}

extension DatabaseReader {
    /// Copies the content of this database into `writer`, replacing what it held: a read
    /// of this database, during a barrier write of the other one.
    ///
    /// ```swift
    /// let copy = try DatabaseQueue()
    /// try dbQueue.backup(to: copy)
    /// ```
    ///
    /// - parameter writer: the database that receives the copy.
    /// - parameter pagesPerStep: how many pages each step copies (-1: all in one step).
    /// - parameter progress: called after each step; it may throw to stop the copy.
    public func backup(
        to writer: some DatabaseWriter,
        pagesPerStep: CInt = -1,
        progress: ((DatabaseBackupProgress) throws -> Void)? = nil
    ) throws {
        try read { sourceDb in
            try writer.barrierWriteWithoutTransaction { destinationDb in
                try sourceDb.backup(to: destinationDb, pagesPerStep: pagesPerStep, progress: progress)
            }
        }
    }
}
