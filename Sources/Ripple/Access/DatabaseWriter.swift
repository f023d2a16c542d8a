/// A type that writes to a database: ``DatabaseQueue`` and ``DatabasePool``.
///
/// All writes are serialized: at any moment at most one thread writes.
public protocol DatabaseWriter: DatabaseReader {
    /// Runs `updates` outside of any transaction, and waits for it. Each statement commits
    /// on its own unless `updates` opens a transaction.
    func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T

    /// Runs `updates` outside of any transaction, once every concurrent read has ended,
    /// and while no new read can start.
    func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T

    /// Runs `updates` on the writer queue, right away when already on it (from inside
    /// another access), otherwise waiting for it. Unsafe: a re-entrant access may run inside
    /// a transaction it did not open.
    func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T

    /// Runs `updates` outside of any transaction, later, on the writer queue.
    func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void)

    /// From the writer queue, outside of any transaction: starts a read-only transaction on
    /// another connection whose snapshot is the current state of the database, waits only
    /// until that snapshot is established, then lets the writer go on while `value` runs
    /// concurrently. On a ``DatabaseQueue``, `value` runs at once on the writer itself.
    func asyncConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void)

    /// Runs `updates` in a transaction without blocking the calling task. An error rolls
    /// the transaction back and is rethrown.
    ///
    /// ```swift
    /// try await dbQueue.write { db in
    ///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
    /// }
    /// ```
    func write<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T

    /// Runs `updates` outside of any transaction without blocking the calling task.
    func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T
}

extension DatabaseWriter {
    /// Runs `updates` in a transaction (of the default kind), and waits for it. An error
    /// rolls the transaction back and is rethrown.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     try db.execute(sql: "INSERT INTO credit ...")
    ///     try db.execute(sql: "INSERT INTO debit ...")
    /// }
    /// ```
    public func write<T>(_ updates: (Database) throws -> T) throws -> T {
        try writeWithoutTransaction { db in
            try db.inCommittedTransaction { try updates(db) }
        }
    }

    /// Runs `updates` in a transaction that commits or rolls back as it returns.
    ///
    /// ```swift
    /// try dbPool.writeInTransaction { db in
    ///     try db.execute(sql: "INSERT INTO credit ...")
    ///     return .commit
    /// }
    /// ```
    public func writeInTransaction(
        _ kind: Database.TransactionKind? = nil,
        _ updates: (Database) throws -> Database.TransactionCompletion
    ) throws {
        try writeWithoutTransaction { db in
            try db.inTransaction(kind) { try updates(db) }
        }
    }

    /// The implementation of the async `write`, shared by queues and pools.
    func awaitWrite<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await awaitWriteWithoutTransaction { db in
            try db.inCommittedTransaction { try updates(db) }
        }
    }

    /// The implementation of the async `writeWithoutTransaction`, shared by queues and pools.
    func awaitWriteWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        // The closure does not outlive this call: it is released before the continuation
        // resumes.
        try await withoutActuallyEscaping(updates) { updates in
            let box = ClosureBox(updates)
            return try await withCheckedThrowingContinuation { continuation in
                asyncWriteWithoutTransaction { db in
                    continuation.resume(with: box.callOnce(db))
                }
            }
        }
    }

    /// Runs `updates` in a transaction, later, then `completion` on the writer queue.
    public func asyncWrite<T>(
        _ updates: @escaping @Sendable (Database) throws -> T,
        completion: @escaping @Sendable (Database, Result<T, any Error>) -> Void
    ) {
        asyncWriteWithoutTransaction { db in
            let result = Result<T, any Error> { try db.inCommittedTransaction { try updates(db) } }
            completion(db, result)
        }
    }
}
