import CSQLite
import Foundation

extension Database {
    /// Starts tracking other processes' commits: the first observer was added (see
    /// ``ExternalChangeMonitor``). Reads where the file stands right now, so that no
    /// commit after this moment is missed, then starts watching.
    func startExternalChangeTracking() {
        guard let tracker = state.value.observation.externalChanges, !tracker.isActive, !isClosed else { return }
        withStatementsHiddenFromTrace { tracker.activate() }
        tracker.state.value.resetBaseline(self)
        tracker.monitor?.trackingDidStart()
        if tracker.state.value.hasPendingCommit {
            tracker.state.value.hasPendingCommit = false
            tracker.monitor?.requestCheck()
        }
    }

    /// Stops tracking: no observer is left.
    func stopExternalChangeTracking() {
        guard let tracker = state.value.observation.externalChanges, tracker.isActive else { return }
        tracker.deactivate()
        tracker.monitor?.trackingDidStop()
    }

    /// Whether observers are registered on this connection.
    var hasTransactionObservers: Bool {
        (state.value.observation.hook as? DatabaseObservationBroker)?.hasObservers ?? false
    }

    /// Whether a check would find commits of other connections and read their entries in
    /// the commit log (``Configuration/logsChangedTables``), in a read transaction that may
    /// meet another process's lock. Without the log, checks never take a lock.
    func externalCommitsMayBeVisible() -> Bool {
        guard !isClosed, let tracker = state.value.observation.externalChanges, tracker.isActive, tracker.logsChangedTables,
            !isInsideTransaction
        else { return false }
        return tracker.state.value.externalCommitsMayBeVisible(self)
    }

    /// Checks the file for commits of other connections and processes, and tells observers
    /// (on the writer queue, between the connection's own accesses).
    ///
    /// The file is read without a lock and without SQL: the wal-index and the write-ahead
    /// log in WAL mode, the database header in rollback-journal mode, only while no other
    /// connection holds the write lock. So a check never makes another connection's write
    /// fail, and never shows in the application's trace. Only the commit log of
    /// ``Configuration/logsChangedTables`` is read with SQL, in a short read transaction.
    /// (The check itself is `ExternalChangeTrackerState.check`; the connection is its
    /// file reader.)
    ///
    /// - parameter deferringNotification: true at the end of an application's access: what
    ///   is found is told later, in an access of its own (``tellDeferredExternalChanges()``),
    ///   since observers' fetches may then wait for another connection's lock, and the
    ///   application's thread (the main thread, maybe) should not.
    func checkExternalChanges(deferringNotification: Bool = false) -> ExternalCheckOutcome {
        guard !isClosed, let tracker = state.value.observation.externalChanges, tracker.isActive else { return .nothingNew }
        // A transaction left open (allowsUnsafeTransactions) keeps its own snapshot: wait.
        guard !isInsideTransaction else { return .checkAgainSoon }
        let result = tracker.state.value.check(self, deferringNotification: deferringNotification)
        tell(result.verdict, tracker)
        return result.outcome
    }

    /// Whether a check found commits to tell later (see ``checkExternalChanges(deferringNotification:)``).
    var hasDeferredExternalChanges: Bool {
        state.value.observation.externalChanges?.state.value.deferredVerdict != nil
    }

    /// Tells what a check found at the end of an application's access.
    func tellDeferredExternalChanges() {
        guard !isClosed, let tracker = state.value.observation.externalChanges, let verdict = tracker.state.value.deferredVerdict else { return }
        // (Between transactions only: one left open keeps it for a later check.)
        guard tracker.isActive, !isInsideTransaction else { return }
        tracker.state.value.deferredVerdict = nil
        tell(verdict, tracker)
    }

    private func tell(_ verdict: ExternalChangeVerdict, _ tracker: ExternalChangeTracker) {
        let region: DatabaseRegion
        switch verdict {
        case .nothing:
            return
        case .fullDatabase:
            tracker.fullDatabaseVerdicts += 1
            // (The schema may have changed.)
            schemaCache = SchemaCache()
            region = .fullDatabase
        case .tables(let tables):
            tracker.preciseVerdicts += 1
            region = tables.reduce(into: DatabaseRegion()) { $0.formUnion(DatabaseRegion(table: $1)) }
        }
        guard let broker = state.value.observation.hook as? DatabaseObservationBroker, broker.hasObservers else { return }
        let waited = readsWaitForOtherWriters
        readsWaitForOtherWriters = !tracker.state.value.isWAL
        defer { readsWaitForOtherWriters = waited }
        broker.notifyExternalCommit(in: region)
    }

    // MARK: - This connection's own commits

    /// SQLite is about to commit a transaction of this connection (its commit hook), which
    /// holds the write lock: in WAL mode the wal-index is read (see ``OwnWALCommits``), in
    /// rollback-journal mode the change counter (see ``ExpectedChangeCounter``).
    func externalChangesCommitWillHappen() {
        guard let tracker = state.value.observation.externalChanges, tracker.isActive,
            let connection = sqliteConnection, sqlite3_txn_state(connection, "main") == SQLITE_TXN_WRITE
        else { return }
        tracker.state.value.ownCommitWillHappen(self)
    }

    /// A transaction of this connection committed (`committed`) or rolled back.
    func externalChangesTransactionDidEnd(committed: Bool) {
        guard let tracker = state.value.observation.externalChanges else { return }
        tracker.state.value.ownTransactionDidEnd(self, committed: committed)
    }

    // MARK: - Reading and writing the commit log without observers hearing of it

    /// Runs `body` with the broker's transaction hooks muted and the trace silent: the
    /// commit log's own work.
    func withUnobservedWork<T>(_ body: () throws -> T) rethrows -> T {
        let wasUnobserved = state.value.observation.runsUnobservedWork
        state.value.observation.runsUnobservedWork = true
        defer { state.value.observation.runsUnobservedWork = wasUnobserved }
        return try withStatementsHiddenFromTrace(body)
    }

    /// Runs `body` inside a read transaction that observers do not hear of (the current
    /// transaction, if any); nil when the transaction cannot begin.
    @discardableResult
    func withUnobservedReadTransaction<T>(_ body: () -> T) -> T? {
        withUnobservedWork {
            guard let connection = sqliteConnection else { return nil }
            if isInsideTransaction { return body() }
            guard sqlite3_exec(connection, "BEGIN DEFERRED", nil, nil, nil) == SQLITE_OK else { return nil }
            defer { sqlite3_exec(connection, "COMMIT", nil, nil, nil) }
            return body()
        }
    }
}

// MARK: - Logging this connection's transactions

extension Database {
    /// Creates the commit log, when the writer opens with
    /// ``Configuration/logsChangedTables``, in a transaction of its own that observers do not
    /// hear of and the trace does not show: never inside a transaction of the application.
    /// Tries for up to two seconds while another connection holds the write lock; a log
    /// that could not be created leaves this connection's commits without entries (other
    /// processes then see changes to the whole database, never miss one).
    func createCommitLog(evenIfCompiled: Bool = false) {
        guard let tracker = state.value.observation.externalChanges, tracker.logsChangedTables,
            !isClosed, !isInsideTransaction, !configuration.readonly, let connection = sqliteConnection
        else { return }
        withUnobservedWork {
            // (After `erase()`, the compiled statements outlive the table.)
            guard evenIfCompiled || tracker.statement(CommitLog.insertSQL) == nil else { return }
            let deadline = Date().addingTimeInterval(2)
            while true {
                if sqlite3_exec(connection, "BEGIN IMMEDIATE; \(CommitLog.createSQL); COMMIT", nil, nil, nil) == SQLITE_OK { return }
                if sqlite3_get_autocommit(connection) == 0 { sqlite3_exec(connection, "ROLLBACK", nil, nil, nil) }
                let code = sqlite3_errcode(connection) & 0xFF
                guard code == SQLITE_BUSY || code == SQLITE_LOCKED, Date() < deadline else { return }
                usleep(10_000)
            }
        }
    }
}
