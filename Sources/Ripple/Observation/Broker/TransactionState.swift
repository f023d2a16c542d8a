/// The current transaction of a connection, as its broker knows it: how it ends, as
/// SQLite's commit and rollback hooks told, and whether observers must hear of that end.
///
/// Its events (a statement starts, succeeds or fails; a commit or rollback hook fires)
/// return what the broker does: announce a commit or a rollback, or forget the
/// transaction. The broker performs it, and calls `end()` when the transaction is over.
struct TransactionState {
    /// How the transaction ends.
    enum Phase {
        /// No end is known yet.
        case open
        /// SQLite rolled back the implicit transaction of the running statement: the
        /// statement failed, or SQLite retries it after compiling it again (it found the
        /// schema changed); the statement's end tells which.
        case implicitRollback
        case committed
        case rolledBack
        /// An observer's `databaseWillCommit()` threw: SQLite rolls back.
        case commitVetoed(any Error)
    }

    /// What the broker does at the end of a transaction. (No payload: a plain value is
    /// returned and dropped for nothing on each statement.)
    enum End {
        case none
        /// Announce the commit.
        case commit
        /// Announce the rollback.
        case rollback
        /// Forget the transaction, telling no one (a read-only access, or a statement that
        /// failed on its own before observers heard anything).
        case forget
        /// A transaction that wrote nothing ended without SQLite's hooks: ask the
        /// observers' `databaseWillCommit()`, then announce the commit (or the rollback
        /// when one throws).
        case commitUnlessVetoed
        /// Announce the rollback, then throw the observer's veto (`vetoError`).
        case rollbackThrowingVeto
    }

    /// What the broker does when SQLite's rollback hook fires.
    enum RollbackEffect {
        /// The statement's changes end with the transaction.
        case endExecution
        /// The implicit transaction of a statement run outside of any transaction: its
        /// changes so far are gone, and the statement may go on.
        case discardChanges
    }

    private(set) var phase = Phase.open
    /// Whether a statement opened the transaction (BEGIN, SAVEPOINT), as opposed to the
    /// implicit transaction of a statement run outside of any transaction.
    private(set) var isExplicit = false
    /// Whether observers were told something during the transaction.
    var toldObservers = false
    /// The region observer whose fetch began the transaction (a value observation that
    /// writes): the commit of its own writes does not notify it, since its value saw them.
    /// A commit made during that commit's notifications is another transaction's.
    var fetchingObserver: ObjectIdentifier?

    /// The error of the observer that vetoed the commit, if one did.
    var vetoError: (any Error)? {
        if case .commitVetoed(let error) = phase { return error }
        return nil
    }

    /// A statement starts: the end of a transaction that SQLite's hooks announced outside of
    /// any statement Ripple ran (SQLite commits some statements when they are reset or
    /// finalized) is announced first.
    @inline(__always)
    mutating func statementWillStart() -> End {
        switch phase {
        case .open: return .none
        case .implicitRollback:
            phase = .open
            return .none
        case .committed: return .commit
        case .rolledBack, .commitVetoed: return .rollback
        }
    }

    /// The statement that starts runs inside a transaction (opened by a statement) or not
    /// (it opens one, or runs in one of its own).
    mutating func statementRuns(insideTransaction: Bool) {
        isExplicit = insideTransaction
    }

    /// SQLite's commit hook: the observers let the commit happen, or `error` vetoed it.
    mutating func commitHook(vetoedBy error: (any Error)?) {
        if let error { phase = .commitVetoed(error) } else { phase = .committed }
    }

    mutating func rollbackHook() -> RollbackEffect {
        if case .commitVetoed = phase { return .endExecution }
        if isExplicit {
            phase = .rolledBack
            return .endExecution
        }
        if case .open = phase { phase = .implicitRollback }
        return .discardChanges
    }

    /// The statement succeeded. `endsTransaction`: it is `COMMIT` or `RELEASE`. The
    /// closures are called only when needed (they ask SQLite).
    @inline(__always)
    mutating func statementDidFinish(
        endsTransaction: () -> Bool, isInsideTransaction: () -> Bool, isReadOnly: () -> Bool
    ) -> End {
        switch phase {
        case .open, .implicitRollback:
            // (A rollback of the statement's implicit transaction was a retry: it succeeded.)
            phase = .open
            // A transaction that wrote nothing ends without SQLite's hooks. As in GRDB,
            // observers hear of it all the same when the code opened it (BEGIN ... COMMIT,
            // SAVEPOINT ... RELEASE): code that waits for the next commit then always hears
            // of it. Read-only accesses are not announced.
            guard isExplicit, endsTransaction(), !isInsideTransaction() else { return .none }
            return isReadOnly() ? .forget : .commitUnlessVetoed
        case .committed: return .commit
        case .rolledBack: return isReadOnly() ? .forget : .rollback
        case .commitVetoed: return .rollbackThrowingVeto
        }
    }

    /// The statement failed.
    mutating func statementDidFail() -> End {
        switch phase {
        case .open: return .none
        case .committed: return .commit
        case .commitVetoed: return .rollbackThrowingVeto
        case .rolledBack, .implicitRollback:
            phase = .rolledBack
            // The whole transaction is gone. Observers hear of it when the transaction was
            // theirs to know about: opened by a statement, or told of changes. A statement
            // that fails outside of a transaction, before telling anything, ends nothing.
            return isExplicit || toldObservers ? .rollback : .forget
        }
    }

    /// The transaction is over: the next one starts afresh.
    mutating func end() {
        self = TransactionState()
    }
}
