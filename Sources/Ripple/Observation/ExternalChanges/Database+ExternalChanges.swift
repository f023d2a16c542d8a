import CSQLite
import Foundation

extension Database {
    /// What a check of the file asks of the monitor next.
    enum ExternalCheckOutcome: Equatable {
        /// Nothing committed elsewhere since the last check.
        case nothingNew
        /// Commits of other connections were told.
        case done
        /// The file could not be read now (locked by a writer), or it holds a commit of
        /// another process that is not visible yet: check again soon.
        case checkAgainSoon
    }

    /// Starts tracking other processes' commits: the first observer was added (see
    /// ``ExternalChangeMonitor``). Reads where the file stands right now, so that no
    /// commit after this moment is missed, then starts watching.
    func startExternalChangeTracking() {
        guard let tracker = observation.externalChanges, !tracker.isActive, !isClosed else { return }
        tracker.activate()
        withUnobservedReadTransaction { tracker.isWAL = readIsWAL() }
        resetExternalChangeBaseline(tracker)
        tracker.monitor?.trackingDidStart()
    }

    /// Stops tracking: no observer is left.
    func stopExternalChangeTracking() {
        guard let tracker = observation.externalChanges, tracker.isActive else { return }
        tracker.deactivate()
        tracker.monitor?.trackingDidStop()
    }

    /// Whether observers are registered on this connection.
    var hasTransactionObservers: Bool {
        (observation.hook as? DatabaseObservationBroker)?.hasObservers ?? false
    }

    /// Reads where the file stands now: the data version, the end of the log or the change
    /// counter, the last commit log entry.
    private func resetExternalChangeBaseline(_ tracker: ExternalChangeTracker) {
        withUnobservedReadTransaction {
            tracker.dataVersion = readDataVersion()
            tracker.logSequence = readLastLogSequence()
            tracker.forgetWALPosition()
            if tracker.isWAL {
                if case .commits(_, let end) = withWALFile({ WALFile.scan(from: nil, $0) }) ?? .unreadable {
                    tracker.walPosition = end
                } else {
                    tracker.walPosition = nil
                }
            } else {
                tracker.changeCounter = readChangeCounter()
            }
        }
    }

    /// Checks the file for commits of other connections and processes, and tells observers
    /// (on the writer queue, between the connection's own accesses).
    func checkExternalChanges() -> ExternalCheckOutcome {
        guard !isClosed, let tracker = observation.externalChanges, tracker.isActive else { return .nothingNew }
        // A transaction left open (allowsUnsafeTransactions) keeps its own snapshot: wait.
        guard !isInsideTransaction else { return .checkAgainSoon }
        tracker.checks += 1
        guard let version = withUnobservedWork({ readDataVersion() }) else { return .checkAgainSoon }
        if version == tracker.dataVersion {
            // Nothing another connection committed is visible. A commit may be on its way,
            // though: in WAL mode, a commit frame is written before the commit is visible.
            return tracker.isWAL ? walHoldsPendingCommit(tracker) : .nothingNew
        }
        var verdict = ExternalChangeVerdict.fullDatabase
        let read = withUnobservedReadTransaction { () -> Bool in
            guard let version = readDataVersion() else { return false }
            tracker.isWAL = readIsWAL()
            let entries = readLogEntries(after: tracker.logSequence)
            let commits: Int?
            if tracker.isWAL {
                commits = countOtherWALCommits(tracker)
                tracker.changeCounter = nil
            } else {
                let counter = readChangeCounter()
                commits = counter.flatMap { counter in tracker.changeCounter.map { Int(counter &- $0) } }
                tracker.changeCounter = counter
                tracker.walPosition = nil
            }
            tracker.ownCommitFrames = []
            tracker.ownResets = 0
            var accountingEntries = entries.flatMap { ExternalChangeVerdict.entries($0, after: tracker.logSequence) }
            if tracker.isWAL {
                // The connection's own commits are left out of the count of commits: their
                // entries too. (In rollback-journal mode, the change counter counts them,
                // and their entries account for them.)
                accountingEntries = accountingEntries?.filter { $0.writer != tracker.writerID }
            }
            verdict = ExternalChangeVerdict(commits: commits, entries: accountingEntries, ownWriter: tracker.writerID)
            if let last = entries?.last?.sequence {
                tracker.logSequence = last
            } else if entries == nil {
                tracker.logSequence = readLastLogSequence()
            }
            tracker.dataVersion = version
            return true
        }
        guard read == true else { return .checkAgainSoon }
        notifyExternalChanges(verdict)
        return .done
    }

    private func notifyExternalChanges(_ verdict: ExternalChangeVerdict) {
        let region: DatabaseRegion
        switch verdict {
        case .nothing:
            return
        case .fullDatabase:
            // (The schema may have changed.)
            schemaCache = SchemaCache()
            region = .fullDatabase
        case .tables(let tables):
            region = tables.reduce(into: DatabaseRegion()) { $0.formUnion(DatabaseRegion(table: $1)) }
        }
        guard let broker = observation.hook as? DatabaseObservationBroker, broker.hasObservers else { return }
        broker.notifyExternalCommit(in: region)
    }

    /// WAL mode, nothing new visible since the last check: every commit since the position
    /// is this connection's own, so the position moves past the last one. Then, is a commit
    /// of another connection on its way (its commit frame written, but not visible yet)?
    /// The monitor then checks again soon.
    private func walHoldsPendingCommit(_ tracker: ExternalChangeTracker) -> ExternalCheckOutcome {
        let pending: Bool? = withWALFile { read in
            guard let header = WALFile.header(read) else { return false }
            skipOwnCommits(tracker, header: header, read)
            guard let position = tracker.walPosition, position.salt1 == header.salt1, position.salt2 == header.salt2,
                  case .commits(let frames, _) = WALFile.scan(from: position, read)
            else { return false }
            return !frames.isEmpty
        }
        return pending == true ? .checkAgainSoon : .nothingNew
    }

    /// Moves the position to the last commit of this connection, when no other connection
    /// committed since the position (the data version did not move) and no other
    /// connection reset the log (its salt-1 grew by this connection's resets only: each
    /// reset adds one). A frame is not rewritten until the log is reset, so the frame that
    /// ends the connection's last commit is still the one it wrote.
    private func skipOwnCommits(_ tracker: ExternalChangeTracker, header: WALFile.Header, _ read: WALFile.Read) {
        guard let position = tracker.walPosition, let lastOwn = tracker.ownCommitFrames.last else { return }
        let resets = UInt32(truncatingIfNeeded: tracker.ownResets)
        guard header.salt1 == position.salt1 &+ resets,
              resets > 0 || (header.salt2 == position.salt2 && lastOwn > position.frame),
              let checksum = WALFile.commitFrameChecksum(at: lastOwn, header: header, read)
        else { return }
        tracker.walPosition = WALFile.Position(salt1: header.salt1, salt2: header.salt2, frame: lastOwn, checksum: checksum)
        tracker.ownCommitFrames = []
        tracker.ownResets = 0
    }

    /// The commits in the log since the last check, except this connection's own; nil when
    /// they cannot be counted. Moves the position to the end of the log.
    private func countOtherWALCommits(_ tracker: ExternalChangeTracker) -> Int? {
        withWALFile { read -> Int? in
            if let position = tracker.walPosition, case .commits(let endFrames, let end) = WALFile.scan(from: position, read) {
                tracker.walPosition = end
                // Since the position, the log was not reset: the frame numbers of this
                // connection's commits are those of this generation of the log.
                let own = Set(tracker.ownCommitFrames)
                return endFrames.filter { !own.contains($0) }.count
            }
            // No position, or lost (the log was reset): commits may have gone unseen.
            if case .commits(_, let end) = WALFile.scan(from: nil, read) {
                tracker.walPosition = end
            } else {
                tracker.walPosition = nil
            }
            return nil
        } ?? nil
    }

    // MARK: - Reading the file without observers hearing of it

    /// Runs `body` with the broker's transaction hooks muted: the commit log's own work.
    func withUnobservedWork<T>(_ body: () throws -> T) rethrows -> T {
        let wasUnobserved = observation.runsUnobservedWork
        observation.runsUnobservedWork = true
        defer { observation.runsUnobservedWork = wasUnobserved }
        return try body()
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

    private func readDataVersion() -> Int64? {
        observation.externalChanges?.statement("PRAGMA data_version")?.rows { sqlite3_column_int64($0, 0) }?.first
    }

    private func readIsWAL() -> Bool {
        let mode = observation.externalChanges?.statement("PRAGMA journal_mode")?.rows { UnobservedStatement.text($0, 0) }?.first
        return mode??.lowercased() == "wal"
    }

    private func readLastLogSequence() -> Int64 {
        observation.externalChanges?.statement(CommitLog.lastSequenceSQL)?.rows { sqlite3_column_int64($0, 0) }?.first ?? 0
    }

    /// The entries after `sequence`; empty when the log does not exist; nil when it can not
    /// be read.
    private func readLogEntries(after sequence: Int64) -> [ExternalChangeVerdict.Entry]? {
        guard let tracker = observation.externalChanges else { return nil }
        guard let statement = tracker.statement(CommitLog.entriesSQL) else {
            // No log yet (or its table is gone).
            return []
        }
        statement.bind(1, sequence)
        return statement.rows { row in
            ExternalChangeVerdict.Entry(
                sequence: sqlite3_column_int64(row, 0),
                writer: sqlite3_column_int64(row, 1),
                tables: CommitLog.decode(UnobservedStatement.text(row, 2)))
        }
    }

    /// Reads the write-ahead log through SQLite's own file handle (another descriptor on
    /// the database's files, once closed, would drop the process's POSIX locks on them).
    private func withWALFile<T>(_ body: (WALFile.Read) -> T) -> T? {
        guard let connection = sqliteConnection else { return nil }
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(connection, "main", SQLITE_FCNTL_JOURNAL_POINTER, &file) == SQLITE_OK,
              let file, let methods = file.pointee.pMethods, let xRead = methods.pointee.xRead
        else { return nil }
        return body { offset, buffer in
            xRead(file, buffer.baseAddress, CInt(buffer.count), offset) == SQLITE_OK
        }
    }

    /// The file change counter of the database header, read through SQLite's file handle,
    /// inside a read transaction (which keeps writers from changing it meanwhile).
    private func readChangeCounter() -> UInt32? {
        guard let connection = sqliteConnection else { return nil }
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(connection, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK,
              let file, let methods = file.pointee.pMethods, let xRead = methods.pointee.xRead
        else { return nil }
        var bytes: [UInt8] = [0, 0, 0, 0]
        let code = bytes.withUnsafeMutableBytes { xRead(file, $0.baseAddress, 4, 24) }
        guard code == SQLITE_OK else { return nil }
        return WALFile.bigEndianWord(bytes, 0)
    }
}

// MARK: - Logging this connection's transactions

extension Database {
    /// A transaction statement starts: BEGIN or SAVEPOINT outside of a transaction starts
    /// gathering what the transaction writes; COMMIT or RELEASE inside a transaction writes
    /// its entry first, if it logs.
    @inline(never)
    func commitLogTransactionStatementWillStart(_ statement: Statement) {
        guard let tracker = observation.externalChanges else { return }
        if !isInsideTransaction {
            tracker.transaction.reset()
            return
        }
        let report = statement.report
        let mayEnd: Bool
        if report.transactionEffect == .commit {
            mayEnd = true
        } else if case .release? = report.savepointEffect {
            mayEnd = true
        } else {
            mayEnd = false
        }
        guard mayEnd, tracker.transaction.hasWrites, !isReadOnly else { return }
        withUnobservedWork {
            if tracker.transactionLogs() { tracker.writeEntry() }
        }
    }

    /// A statement starts (or was compiled again): what it writes may go in the entry.
    @inline(__always)
    func commitLogStatementWillStart(_ statement: Statement) {
        let report = statement.report
        if report.mayWrite || report.changesSchema {
            observation.externalChanges?.transaction.add(report)
        }
    }
}

// MARK: - Subscriptions

extension Database {
    /// Writes (or removes) this connection's subscription in the commit log, in a
    /// transaction of its own that observers do not hear of, creating the log's tables
    /// when needed. Returns whether it succeeded (not on a read-only connection, or when
    /// the database is locked).
    @discardableResult
    func updateCommitLogSubscription(subscribe: Bool) -> Bool {
        guard let tracker = observation.externalChanges, tracker.commitLogging != .never,
              !isClosed, !isInsideTransaction, !isReadOnly, let connection = sqliteConnection
        else { return false }
        return withUnobservedWork {
            guard sqlite3_exec(connection, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK else { return false }
            var succeeded = !subscribe || sqlite3_exec(connection, CommitLog.createSQL, nil, nil, nil) == SQLITE_OK
            if succeeded, let statement = tracker.statement(subscribe ? CommitLog.subscribeSQL : CommitLog.unsubscribeSQL) {
                statement.bind(1, tracker.writerID)
                if subscribe { statement.bind(2, Date().timeIntervalSince1970 + CommitLog.subscriptionLifetime) }
                succeeded = statement.run() == SQLITE_OK
            }
            // An entry that names no table: other observers know this commit changed nothing
            // of theirs.
            if succeeded {
                let transaction = tracker.transaction
                tracker.transaction = .empty
                tracker.writeEntry()
                tracker.transaction = transaction
            }
            if succeeded, sqlite3_exec(connection, "COMMIT", nil, nil, nil) == SQLITE_OK { return true }
            sqlite3_exec(connection, "ROLLBACK", nil, nil, nil)
            return false
        }
    }
}
