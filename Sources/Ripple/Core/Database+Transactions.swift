import CSQLite

extension Database {
    /// The kinds of SQLite transactions.
    public enum TransactionKind: String, Sendable {
        /// `BEGIN DEFERRED TRANSACTION`: locks are taken at the first read or write.
        case deferred = "DEFERRED"
        /// `BEGIN IMMEDIATE TRANSACTION`: the write lock is taken at once.
        case immediate = "IMMEDIATE"
        /// `BEGIN EXCLUSIVE TRANSACTION`.
        case exclusive = "EXCLUSIVE"
    }

    /// How a transaction or savepoint closure ends.
    public enum TransactionCompletion: Sendable {
        /// Commit the transaction, or release the savepoint.
        case commit
        /// Roll back the transaction, or roll back to the savepoint.
        case rollback
    }

    /// Whether a transaction is open, however it was opened (methods or raw SQL).
    public var isInsideTransaction: Bool {
        guard let sqliteConnection else { return false }
        return sqlite3_get_autocommit(sqliteConnection) == 0
    }

    /// Begins a transaction of the given kind (default: the configuration's
    /// ``Configuration/defaultTransactionKind``, else, as in GRDB 7, `IMMEDIATE`, and
    /// `DEFERRED` in a read-only access or on a read-only connection).
    public func beginTransaction(_ kind: TransactionKind? = nil) throws {
        switch kind ?? configuration.defaultTransactionKind ?? (isInReadOnlyAccess ? .deferred : .immediate) {
        case .deferred: try internalStatement(.beginDeferred).execute()
        case .immediate: try internalStatement(.beginImmediate).execute()
        case .exclusive: try internalStatement(.beginExclusive).execute()
        }
    }

    /// Commits the current transaction.
    public func commit() throws {
        try internalStatement(.commit).execute()
    }

    /// Rolls back the current transaction.
    ///
    /// An interruption (``DatabaseReader/interrupt()``) does not make it fail: an
    /// interrupt may leave SQLite's connection interrupted for as long as a statement is
    /// active (an FTS5 table's, <https://sqlite.org/forum/forumpost/95413eb410>), and a
    /// rollback that fails would leave the transaction open. The statements are then reset
    /// and the rollback runs again.
    public func rollback() throws {
        do {
            try internalStatement(.rollback).execute()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT && isInsideTransaction {
            resetAllPreparedStatements()
            try internalStatement(.rollback).execute()
        }
    }

    /// Resets every statement of the connection, so that none is active.
    private func resetAllPreparedStatements() {
        var statement = sqlite3_next_stmt(sqliteConnection, nil)
        while let current = statement {
            sqlite3_reset(current)
            statement = sqlite3_next_stmt(sqliteConnection, current)
        }
    }

    /// Rolls back if a transaction is open; SQLite may have rolled back by itself after
    /// some errors (SQLITE_FULL, SQLITE_IOERR, ...).
    func rollbackIfInsideTransaction() {
        if isInsideTransaction { try? rollback() }
    }

    /// Runs `operations` in a transaction, committed or rolled back as the closure returns.
    ///
    /// If `operations` throws, the transaction is rolled back and the error rethrown. If the
    /// commit fails, the transaction is rolled back and the commit error thrown.
    ///
    /// ```swift
    /// try dbQueue.writeWithoutTransaction { db in
    ///     try db.inTransaction {
    ///         try db.execute(sql: "INSERT INTO credit ...")
    ///         try db.execute(sql: "INSERT INTO debit ...")
    ///         return .commit
    ///     }
    /// }
    /// ```
    public func inTransaction(_ kind: TransactionKind? = nil, _ operations: () throws -> TransactionCompletion) throws {
        try beginTransaction(kind)
        let completion: TransactionCompletion
        do {
            completion = try inTransactionBlock(operations)
        } catch {
            rollbackIfInsideTransaction()
            throw error
        }
        switch completion {
        case .commit:
            try commitOrRollBack()
        case .rollback:
            // The closure may have ended the transaction itself.
            if isInsideTransaction { try rollback() }
        }
    }

    /// Runs the closure of a transaction method. When its transaction ends inside it
    /// (SQLite rolled it back after an error, or SQL ended it), each later statement of the
    /// closure, and the commit, throw `SQLITE_ABORT` ("Transaction was aborted"), as in
    /// GRDB: they would otherwise run outside of any transaction. (The commit's check is
    /// that no transaction is left to commit.)
    private func inTransactionBlock<T>(_ body: () throws -> T) throws -> T {
        transactionBlockDepth += 1
        defer {
            transactionBlockDepth -= 1
            if transactionBlockDepth == 0 { transactionWasAborted = false }
        }
        return try body()
    }

    /// A transaction method's transaction ended inside its closure (see
    /// `inTransactionBlock`).
    func noteTransactionEndInsideBlock() {
        if transactionBlockDepth > 0 { transactionWasAborted = true }
    }

    func abortedTransactionError(_ sql: String?, _ arguments: StatementArguments?) -> DatabaseError {
        DatabaseError(resultCode: .SQLITE_ABORT, message: "Transaction was aborted", sql: sql, arguments: arguments)
    }

    /// Commits; if the commit fails, rolls back and throws the commit error.
    private func commitOrRollBack() throws {
        // The closure's transaction ended inside it: SQLITE_ABORT rather than SQLite's
        // "cannot commit - no transaction is active".
        guard isInsideTransaction else { throw abortedTransactionError(nil, nil) }
        do {
            try commit()
        } catch {
            rollbackIfInsideTransaction()
            throw error
        }
    }

    /// Runs `body` in a transaction committed when it returns (rolled back when it throws),
    /// and returns its result: the shape of `write` and friends.
    ///
    /// Straight-line code, not `inTransaction` with a `var result: T?`: in unspecialized
    /// generic code, `Optional<T>` costs a generic metadata lookup on each call.
    func inCommittedTransaction<T>(_ kind: TransactionKind? = nil, _ body: () throws -> T) throws -> T {
        try beginTransaction(kind)
        let result: T
        do {
            result = try inTransactionBlock(body)
        } catch {
            rollbackIfInsideTransaction()
            throw error
        }
        try commitOrRollBack()
        return result
    }

    /// Runs `body` in a read-only deferred transaction: a statement that would write throws
    /// `SQLITE_READONLY`. The shape of `read` on a connection that also writes.
    func inReadOnlyTransaction<T>(_ body: () throws -> T) throws -> T {
        try readOnly { try inCommittedTransaction(.deferred, body) }
    }

    /// Runs `operations` in a savepoint, released or rolled back as the closure returns.
    ///
    /// Savepoints nest. Outside of any transaction, a savepoint opens one (of the default
    /// kind), committed when the savepoint is released: changes reach the disk only when
    /// the outermost transaction commits.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     try db.inSavepoint {
    ///         try db.execute(sql: "INSERT INTO credit ...")
    ///         try db.execute(sql: "INSERT INTO debit ...")
    ///         return .commit
    ///     }
    /// }
    /// ```
    public func inSavepoint(_ operations: () throws -> TransactionCompletion) throws {
        guard isInsideTransaction else {
            try inTransaction(nil, operations)
            return
        }
        // The savepoint name is not unique: SQLite releases and rolls back to the most
        // recent savepoint of that name, which is the one this call opened.
        try internalStatement(.savepoint).execute()
        let completion: TransactionCompletion
        do {
            completion = try operations()
        } catch {
            if isInsideTransaction { try? rollbackToSavepointAndRelease() }
            throw error
        }
        switch completion {
        case .commit:
            try internalStatement(.releaseSavepoint).execute()
        case .rollback:
            if isInsideTransaction { try rollbackToSavepointAndRelease() }
        }
    }

    private func rollbackToSavepointAndRelease() throws {
        try internalStatement(.rollbackToSavepoint).execute()
        try internalStatement(.releaseSavepoint).execute()
    }
}
