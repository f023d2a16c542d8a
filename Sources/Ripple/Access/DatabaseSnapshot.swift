import Dispatch

/// A connection that sees an unchanging database content: the content the database had
/// when the snapshot was made with ``DatabasePool/makeSnapshot()``.
///
/// ```swift
/// let dbPool = try DatabasePool(path: "/path/to/database.sqlite")
/// let snapshot = try dbPool.makeSnapshot()
/// try dbPool.write { db in try db.execute(sql: "DELETE FROM player") }
/// // Still the players of the moment the snapshot was made.
/// let count = try snapshot.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
/// ```
///
/// The snapshot is one read-only connection that keeps a read transaction open for its
/// whole life: its accesses run one after the other, on its own dispatch queue, and never
/// see a later commit. In WAL mode (a pool's), the pool's writes go on while it exists;
/// the database file's WAL can not be checkpointed past the snapshot's state until it
/// goes, so keep snapshots for as long as they are needed only. The connection closes
/// when the snapshot is deallocated, or with ``close()``.
public final class DatabaseSnapshot: DatabaseReader {
    private let reader: SerializedDatabase

    /// The configuration of the snapshot's connection (read-only).
    public let configuration: Configuration

    /// The path of the database file.
    public let path: String

    init(path: String, configuration: Configuration, label: String, readStarts: ReadTransactionStarts? = nil) throws {
        var configuration = configuration
        configuration.readonly = true
        // The snapshot is a transaction that spans every access.
        configuration.allowsUnsafeTransactions = true
        self.configuration = configuration
        self.path = path
        reader = try SerializedDatabase(
            path: path, configuration: configuration, label: label,
            context: AccessContext(role: .reader),
            readStarts: readStarts.map { .counts($0) })
        try reader.sync { db in
            do {
                try DatabasePool.beginSnapshot(db)
            } catch {
                db.rollbackIfInsideTransaction()
                throw error
            }
        }
    }

    public func close() throws {
        try reader.sync { db in
            db.rollbackIfInsideTransaction()
            try db.close()
        }
    }

    public func interrupt() {
        reader.interruptHandle.interrupt()
    }

    /// Throws when the snapshot's transaction is gone: a statement of an access ended it
    /// (`COMMIT`, `ROLLBACK`), or an interruption rolled it back. The snapshot then sees
    /// nothing any longer.
    private static func checkSnapshot(_ db: Database) throws {
        guard db.isInsideTransaction else {
            throw DatabaseError.misuse("the snapshot's transaction was ended: the snapshot is no longer usable")
        }
    }

    /// Runs `value` on the snapshot's content, and waits for it. A write throws
    /// `SQLITE_READONLY`.
    /// Runs `value` in the access the current thread runs on this snapshot, if any;
    /// otherwise as `read(_:)` does.
    ///
    /// - parameter value: reads the database.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        if reader.isHeldByCurrentThread { return try reader.onCurrentQueue(value) }
        return try read(value)
    }

    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        try reader.sync { db in
            try Self.checkSnapshot(db)
            return try value(db)
        }
    }

    /// The same as `read(_:)`, a snapshot never changes, but rethrowing only the errors of
    /// `value`, as GRDB's: a snapshot whose transaction a previous access ended
    /// (`COMMIT`) is a fatal error here, where `read(_:)` throws.
    public func unsafeRead<T>(_ value: (Database) throws -> T) rethrows -> T {
        try reader.sync { db in
            // (A closed snapshot: `value`'s statements throw.)
            guard db.isInsideTransaction || db.isClosed else {
                fatalError("The snapshot's transaction was ended (by a COMMIT or ROLLBACK in an access to it): make a new snapshot.")
            }
            return try value(db)
        }
    }

    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        reader.async { db in
            do {
                try Self.checkSnapshot(db)
            } catch {
                value(.failure(error))
                return
            }
            value(.success(db))
        }
    }

    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await awaitRead(value)
    }
}

extension DatabasePool {
    /// A snapshot of the database's last committed content, which later writes do not
    /// change (see ``DatabaseSnapshot``).
    ///
    /// To know exactly what the snapshot sees, make it from a write access, outside of a
    /// transaction: no other write can happen in between.
    ///
    /// ```swift
    /// let snapshot = try dbPool.writeWithoutTransaction { db in
    ///     try db.inTransaction {
    ///         try db.execute(sql: "DELETE FROM player")
    ///         return .commit
    ///     }
    ///     return try dbPool.makeSnapshot()   // sees no player
    /// }
    /// ```
    ///
    /// It is a programmer error to call it from a write access, inside a transaction: the
    /// snapshot would not see the changes of that transaction, which are not committed yet.
    public func makeSnapshot() throws -> DatabaseSnapshot {
        if writer.isHeldByCurrentThread, writer.onCurrentQueue({ $0.isInsideTransaction }) {
            fatalError("makeSnapshot() must not be called from inside a transaction: call it before the transaction begins, or after it ends")
        }
        let number = snapshotCount.withLock { count in
            count += 1
            return count
        }
        return try DatabaseSnapshot(
            path: path, configuration: configuration,
            label: "\(configuration.label ?? "Ripple.DatabasePool").snapshot.\(number)",
            readStarts: readStarts)
    }
}
