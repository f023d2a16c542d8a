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
        withStatementsHiddenFromTrace { tracker.activate() }
        resetExternalChangeBaseline(tracker)
        tracker.monitor?.trackingDidStart()
        if tracker.hasPendingCommit {
            tracker.hasPendingCommit = false
            tracker.monitor?.requestCheck()
        }
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

    /// Reads where the file stands now, without a lock: the end of the write-ahead log, or
    /// the change counter. What cannot be read now is found by a later check, which then
    /// tells a change to the whole database.
    private func resetExternalChangeBaseline(_ tracker: ExternalChangeTracker) {
        tracker.forgetWALPosition()
        tracker.isWAL = readDatabaseHeader()?.isWAL ?? false
        if tracker.isWAL {
            // (The last visible commit: one whose frame is written but not published yet
            // comes after the position.)
            tracker.walPosition = withWALFile { visiblePosition($0) } ?? nil
            if tracker.walPosition == nil { tracker.hasPendingCommit = true }
        } else {
            let counter = changeCounterWithoutWriter()
            tracker.changeCounter.reset(to: counter, pagesWritten: pagesWritten())
            tracker.loggedCounter = counter
            if counter == nil { tracker.hasPendingCommit = true }
        }
    }

    /// Whether a check would find commits of other connections and read their entries in
    /// the commit log (``Configuration/logsChangedTables``), in a read transaction that may
    /// meet another process's lock. Without the log, checks never take a lock.
    func externalCommitsMayBeVisible() -> Bool {
        guard !isClosed, let tracker = observation.externalChanges, tracker.isActive, tracker.logsChangedTables,
              !isInsideTransaction
        else { return false }
        if tracker.isWAL {
            guard let position = tracker.walPosition, let index = readWALIndexHeader() else { return true }
            return !index.isAt(position)
        }
        guard let counter = changeCounterWithoutWriter() else { return true }
        return counter != tracker.changeCounter.value
    }

    /// Checks the file for commits of other connections and processes, and tells observers
    /// (on the writer queue, between the connection's own accesses).
    ///
    /// The file is read without a lock and without SQL: the wal-index and the write-ahead
    /// log in WAL mode, the database header in rollback-journal mode, only while no other
    /// connection holds the write lock. So a check never makes another connection's write
    /// fail, and never shows in the application's trace. Only the commit log of
    /// ``Configuration/logsChangedTables`` is read with SQL, in a short read transaction.
    ///
    /// - parameter deferringNotification: true at the end of an application's access: what
    ///   is found is told later, in an access of its own (``tellDeferredExternalChanges()``),
    ///   since observers' fetches may then wait for another connection's lock, and the
    ///   application's thread (the main thread, maybe) should not.
    func checkExternalChanges(deferringNotification: Bool = false) -> ExternalCheckOutcome {
        guard !isClosed, let tracker = observation.externalChanges, tracker.isActive else { return .nothingNew }
        // A transaction left open (allowsUnsafeTransactions) keeps its own snapshot: wait.
        guard !isInsideTransaction else { return .checkAgainSoon }
        tracker.checks += 1
        guard let header = readDatabaseHeader() else { return .checkAgainSoon }
        if header.isWAL != tracker.isWAL {
            // The journal mode changed: where the file stands is read anew, and everything
            // may have changed.
            resetExternalChangeBaseline(tracker)
            if deferringNotification {
                tracker.deferredVerdict = .fullDatabase
            } else {
                tracker.deferredVerdict = nil
                tell(.fullDatabase, tracker)
            }
            return .done
        }
        let verdict: ExternalChangeVerdict?
        if tracker.isWAL {
            verdict = checkWAL(tracker)
        } else {
            verdict = checkRollbackJournal(tracker)
        }
        guard var verdict else { return .checkAgainSoon }
        if let deferred = tracker.deferredVerdict {
            verdict = deferred.merged(with: verdict)
            tracker.deferredVerdict = nil
        }
        if deferringNotification && verdict != .nothing {
            tracker.deferredVerdict = verdict
        } else {
            tell(verdict, tracker)
        }
        if tracker.hasPendingCommit {
            // Commits not visible yet: they will be, but no file event may come then.
            tracker.hasPendingCommit = false
            return .checkAgainSoon
        }
        return verdict == .nothing ? .nothingNew : .done
    }

    /// Whether a check found commits to tell later (see ``checkExternalChanges(deferringNotification:)``).
    var hasDeferredExternalChanges: Bool {
        observation.externalChanges?.deferredVerdict != nil
    }

    /// Tells what a check found at the end of an application's access.
    func tellDeferredExternalChanges() {
        guard !isClosed, let tracker = observation.externalChanges, let verdict = tracker.deferredVerdict else { return }
        // (Between transactions only: one left open keeps it for a later check.)
        guard tracker.isActive, !isInsideTransaction else { return }
        tracker.deferredVerdict = nil
        tell(verdict, tracker)
    }

    /// WAL mode: the commits published in the wal-index since the position, less this
    /// connection's own; nil when the file cannot be read now.
    private func checkWAL(_ tracker: ExternalChangeTracker) -> ExternalChangeVerdict? {
        guard let start = tracker.walPosition else {
            // Not known yet, or lost: once found, commits may have gone unseen before it.
            guard let position = withWALFile({ visiblePosition($0) }) ?? nil else {
                tracker.hasPendingCommit = true
                return nil
            }
            tracker.walPosition = position
            tracker.forgetOwnCommits()
            return .fullDatabase
        }
        if let index = readWALIndexHeader() {
            if let end = tracker.ownCommits.endFrameExplainingAll(salt1: start.salt1, salt2: start.salt2, frame: start.frame, index: index) {
                // Only this connection committed since the position: it moves past its
                // commits without scanning their frames.
                tracker.forgetOwnCommits()
                if let position = withWALFile({ read -> WALFile.Position? in
                    guard let header = WALFile.header(read), header.salt1 == start.salt1, header.salt2 == start.salt2
                    else { return nil }
                    return WALFile.commitPosition(at: end, header: header, read)
                }) ?? nil {
                    tracker.walPosition = position
                    if walHoldsPendingCommit(tracker) { tracker.hasPendingCommit = true }
                    return .nothing
                }
                // (The frame could not be read: the log is scanned below.)
            } else if index.isAt(start) {
                // Nothing published since the position. Is a commit on its way (its commit
                // frame written, but not visible yet)?
                if walHoldsPendingCommit(tracker) { tracker.hasPendingCommit = true }
                return .nothing
            }
        }
        guard let commits = otherWALCommits(tracker) else { return .fullDatabase }
        if commits.isEmpty { return .nothing }
        guard tracker.logsChangedTables else { return .fullDatabase }
        // The commits were read from the log first, up to the last one the wal-index shows
        // visible; the read transaction that reads their entries sees all of them. (In the
        // other order, a commit published in between would be counted without its entry.)
        let entries = withUnobservedReadTransaction {
            readLogEntries(CommitLog.walEntriesSQL, Int64(start.salt1), Int64(start.frame))
        }
        return ExternalChangeVerdict(commits: commits, entries: entries ?? [], ownWriter: tracker.writerID)
    }

    /// Rollback-journal mode: whether the change counter moved by another connection's
    /// commits; nil while another connection holds the write lock.
    private func checkRollbackJournal(_ tracker: ExternalChangeTracker) -> ExternalChangeVerdict? {
        guard let counter = changeCounterWithoutWriter() else { return nil }
        let pages = pagesWritten()
        tracker.changeCounter.settle(pagesWritten: pages)
        let ownCommits = tracker.changeCounter.ownCommits
        let loggedFrom = tracker.loggedCounter
        tracker.loggedCounter = counter
        guard tracker.changeCounter.check(counter: counter, pagesWritten: pages) else { return .nothing }
        guard tracker.logsChangedTables, let loggedFrom else { return .fullDatabase }
        // The entries are read under the shared lock of a read transaction, which keeps
        // writers out: the change counter read there and the log agree. It begins only
        // while no other connection holds the write lock; else (the counter already moved
        // on) a change to the whole database is told now rather than never.
        guard otherConnectionHoldsWriteLock() == false else { return .fullDatabase }
        let verdict = withUnobservedReadTransaction { () -> ExternalChangeVerdict? in
            guard let counter = readDatabaseHeader()?.changeCounter else { return nil }
            tracker.loggedCounter = counter
            tracker.changeCounter.reset(to: counter, pagesWritten: pages)
            // This connection's own commits need no entry: their keys are known.
            let own = ownCommits.map {
                ExternalChangeVerdict.Entry(key: CommitKey(generation: nil, previous: Int64($0)), writer: tracker.writerID, tables: [])
            }
            let entries = readLogEntries(CommitLog.rollbackEntriesSQL, Int64(loggedFrom), nil)
            return ExternalChangeVerdict(
                commits: CommitKey.rollbackCommits(from: loggedFrom, to: counter),
                entries: own + entries,
                ownWriter: tracker.writerID)
        }
        return (verdict ?? nil) ?? .fullDatabase
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
        guard let broker = observation.hook as? DatabaseObservationBroker, broker.hasObservers else { return }
        let waited = readsWaitForOtherWriters
        readsWaitForOtherWriters = !tracker.isWAL
        defer { readsWaitForOtherWriters = waited }
        broker.notifyExternalCommit(in: region)
    }

    /// WAL mode, nothing published since the position: whether a commit is on its way
    /// (its commit frame written after the position, but not visible yet).
    private func walHoldsPendingCommit(_ tracker: ExternalChangeTracker) -> Bool {
        withWALFile { read in
            guard let header = WALFile.header(read), let position = tracker.walPosition,
                  position.salt1 == header.salt1, position.salt2 == header.salt2,
                  case .commits(let frames, _) = WALFile.scan(from: position, read)
            else { return false }
            return !frames.isEmpty
        } ?? false
    }

    /// The keys of the commits in the log since the last check, except this connection's
    /// own; nil when they cannot be told. Moves the position past the commits that are
    /// visible: a commit frame is written a little before the commit is published in the
    /// wal-index, and the refetches that follow must see each commit the position moves
    /// past. Commits not visible yet are counted by a later check (`hasPendingCommit`).
    private func otherWALCommits(_ tracker: ExternalChangeTracker) -> [CommitKey]? {
        defer { tracker.forgetOwnCommits() }
        return withWALFile { read -> [CommitKey]? in
            guard let position = tracker.walPosition,
                  case .commits(let endFrames, let end) = WALFile.scan(from: position, read)
            else {
                // No position, or lost (the log was reset): commits may have gone unseen.
                tracker.walPosition = visiblePosition(read)
                if tracker.walPosition == nil { tracker.hasPendingCommit = true }
                return nil
            }
            guard let index = readWALIndexHeader(), index.salt1 == end.salt1, index.salt2 == end.salt2 else {
                // The wal-index does not tell which commits are visible: the position
                // stays, until it does.
                tracker.hasPendingCommit = true
                return nil
            }
            let visibleFrames = endFrames.filter { $0 <= index.maxFrame }
            var newPosition = end
            if visibleFrames.count < endFrames.count {
                tracker.hasPendingCommit = true
                if let lastVisible = visibleFrames.last {
                    guard let header = WALFile.header(read),
                          let lastVisiblePosition = WALFile.commitPosition(at: lastVisible, header: header, read)
                    else {
                        // (The position stays, until that frame can be read.)
                        return nil
                    }
                    newPosition = lastVisiblePosition
                } else {
                    newPosition = position
                }
            }
            tracker.walPosition = newPosition
            // Since the position, the log was not reset: the frame numbers of this
            // connection's commits are those of this generation of the log.
            let own = Set(tracker.ownCommits.endFrames)
            return CommitKey.walCommits(generation: position.salt1, start: position.frame, endFrames: visibleFrames)
                .enumerated().filter { !own.contains(visibleFrames[$0.offset]) }.map(\.element)
        } ?? nil
    }

    /// The position after the last visible commit of the log; nil when the log or the
    /// wal-index cannot be read, or disagree (a writer is resetting the log).
    private func visiblePosition(_ read: WALFile.Read) -> WALFile.Position? {
        guard let header = WALFile.header(read), let index = readWALIndexHeader(),
              index.salt1 == header.salt1, index.salt2 == header.salt2
        else { return nil }
        if index.maxFrame == 0 {
            return WALFile.Position(salt1: header.salt1, salt2: header.salt2, frame: 0, checksum: header.checksum)
        }
        guard case .commits(let endFrames, _) = WALFile.scan(from: nil, read), endFrames.contains(index.maxFrame)
        else { return nil }
        return WALFile.commitPosition(at: index.maxFrame, header: header, read)
    }

    /// The wal-index header, read through SQLite's own mapping of the `-shm` file (the VFS's
    /// `xShmMap`): no other descriptor is opened on the database's files.
    func readWALIndexHeader() -> WALIndexHeader? {
        guard let (file, methods) = sqliteFile(SQLITE_FCNTL_FILE_POINTER), methods.iVersion >= 2,
              let shmMap = methods.xShmMap
        else { return nil }
        var region: UnsafeMutableRawPointer?
        // Region 0, of 32 KiB, already mapped by the connection (bExtend 0: nothing created).
        guard withUnsafeMutablePointer(to: &region, { pointer in
            pointer.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 1) { shmMap(file, 0, 32768, 0, $0) }
        }) == SQLITE_OK, let region else { return nil }
        return WALIndexHeader.read(region)
    }

    /// The key of the commit that the running transaction is about to make (see
    /// ``CommitKey``), read while the transaction holds the write lock; nil when unknown.
    func keyOfNextCommit(_ tracker: ExternalChangeTracker) -> CommitKey? {
        if let key = withWALFile({ read -> CommitKey? in
            guard let header = WALFile.header(read) else { return nil }
            var start = tracker.writerWALPosition
            if start?.salt1 != header.salt1 || start?.salt2 != header.salt2 { start = nil }
            var scan = WALFile.scan(from: start, read)
            if case .positionLost = scan { scan = WALFile.scan(from: nil, read) }
            guard case .commits(_, let end) = scan else { return nil }
            tracker.writerWALPosition = end
            return CommitKey(generation: end.salt1, previous: Int64(end.frame))
        }), let key {
            return key
        }
        // Rollback-journal mode: the change counter, which the write lock keeps still.
        guard let counter = readDatabaseHeader()?.changeCounter, !tracker.isWAL else { return nil }
        return CommitKey(generation: nil, previous: Int64(counter))
    }

    // MARK: - Reading the file without observers hearing of it

    /// Runs `body` with the broker's transaction hooks muted and the trace silent: the
    /// commit log's own work.
    func withUnobservedWork<T>(_ body: () throws -> T) rethrows -> T {
        let wasUnobserved = observation.runsUnobservedWork
        observation.runsUnobservedWork = true
        defer { observation.runsUnobservedWork = wasUnobserved }
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

    /// The entries that `sql` selects, with its two arguments; empty when the log does not
    /// exist or cannot be read.
    private func readLogEntries(_ sql: String, _ first: Int64?, _ second: Int64?) -> [ExternalChangeVerdict.Entry] {
        guard let tracker = observation.externalChanges, let statement = tracker.statement(sql) else { return [] }
        statement.bind(1, first)
        if let second { statement.bind(2, second) }
        return statement.rows { row in
            ExternalChangeVerdict.Entry(
                key: CommitKey(
                    generation: sqlite3_column_type(row, 0) == SQLITE_NULL ? nil : UInt32(truncatingIfNeeded: sqlite3_column_int64(row, 0)),
                    previous: sqlite3_column_int64(row, 1)),
                writer: sqlite3_column_int64(row, 2),
                tables: CommitLog.decode(UnobservedStatement.text(row, 3)))
        } ?? []
    }

    /// SQLite's own handle of the main database file (`SQLITE_FCNTL_FILE_POINTER`) or of its
    /// journal or write-ahead log (`SQLITE_FCNTL_JOURNAL_POINTER`), with its methods; nil
    /// when the file is not open.
    private func sqliteFile(_ opcode: CInt) -> (UnsafeMutablePointer<sqlite3_file>, sqlite3_io_methods)? {
        guard let connection = sqliteConnection else { return nil }
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(connection, "main", opcode, &file) == SQLITE_OK,
              let file, let methods = file.pointee.pMethods
        else { return nil }
        return (file, methods.pointee)
    }

    /// Reads the write-ahead log through SQLite's own file handle (another descriptor on
    /// the database's files, once closed, would drop the process's POSIX locks on them).
    private func withWALFile<T>(_ body: (WALFile.Read) -> T) -> T? {
        guard let (file, methods) = sqliteFile(SQLITE_FCNTL_JOURNAL_POINTER), let xRead = methods.xRead else { return nil }
        return body { offset, buffer in
            xRead(file, buffer.baseAddress, CInt(buffer.count), offset) == SQLITE_OK
        }
    }

    /// What the database header says, read through SQLite's file handle without a lock
    /// (https://www.sqlite.org/fileformat2.html#the_database_header): bytes 18 and 19 are 2
    /// in WAL mode, bytes 24 to 27 the file change counter. Nil when the file cannot be read.
    func readDatabaseHeader() -> DatabaseHeader? {
        guard let (file, methods) = sqliteFile(SQLITE_FCNTL_FILE_POINTER), let xRead = methods.xRead else { return nil }
        var bytes = [UInt8](repeating: 0, count: 10)
        let code = bytes.withUnsafeMutableBytes { xRead(file, $0.baseAddress, 10, 18) }
        // (A short read fills the rest with zeros: the file of a new database is empty, and
        // its counter is zero.)
        guard code == SQLITE_OK || code == SQLITE_IOERR | (2 << 8) else { return nil }  // SQLITE_IOERR_SHORT_READ
        return DatabaseHeader(isWAL: bytes[0] == 2 && bytes[1] == 2, changeCounter: WALFile.bigEndianWord(bytes, 6))
    }

    /// Whether a connection other than this one (of this process, or another) holds the
    /// write lock of the database file (SQLite's RESERVED lock or more: between its first
    /// write and the end of its commit), as SQLite's VFS tells from the file locks, without
    /// taking one (`xCheckReservedLock`). Nil when it cannot be told.
    func otherConnectionHoldsWriteLock() -> Bool? {
        guard let (file, methods) = sqliteFile(SQLITE_FCNTL_FILE_POINTER), let checkReservedLock = methods.xCheckReservedLock
        else { return nil }
        var isHeld: CInt = 0
        guard checkReservedLock(file, &isHeld) == SQLITE_OK else { return nil }
        return isHeld != 0
    }

    /// Rollback-journal mode: the file change counter, read while no other connection holds
    /// the write lock (before and after the read: the counter is not half-way through a
    /// commit); nil otherwise.
    private func changeCounterWithoutWriter() -> UInt32? {
        if let connection = sqliteConnection, sqlite3_txn_state(connection, "main") != SQLITE_TXN_NONE {
            // This connection's transaction holds a lock (the file locks would tell its
            // own): no other connection can commit until it ends.
            return readDatabaseHeader()?.changeCounter
        }
        guard otherConnectionHoldsWriteLock() == false, let counter = readDatabaseHeader()?.changeCounter,
              otherConnectionHoldsWriteLock() == false
        else { return nil }
        return counter
    }

    /// SQLite's count of the pages this connection wrote to its database files
    /// (`SQLITE_DBSTATUS_CACHE_WRITE`).
    func pagesWritten() -> Int64 {
        var current: CInt = 0
        var highwater: CInt = 0
        sqlite3_db_status(sqliteConnection, SQLITE_DBSTATUS_CACHE_WRITE, &current, &highwater, 0)
        return Int64(current)
    }

    // MARK: - This connection's own commits, in rollback-journal mode

    /// SQLite is about to commit a transaction of this connection (its commit hook), which
    /// holds the write lock: in WAL mode the wal-index is read (see ``OwnWALCommits``), in
    /// rollback-journal mode the change counter (see ``ExpectedChangeCounter``).
    func externalChangesCommitWillHappen() {
        guard let tracker = observation.externalChanges, tracker.isActive,
              let connection = sqliteConnection, sqlite3_txn_state(connection, "main") == SQLITE_TXN_WRITE
        else { return }
        if tracker.isWAL {
            // Where the log stands before this commit (see `OwnWALCommits`).
            tracker.ownCommits.commitWillHappen(start: readWALIndexHeader())
            return
        }
        let isExact = sqlite3_txn_state(connection, "temp") != SQLITE_TXN_WRITE && sqlite3_db_name(connection, 2) == nil
        tracker.changeCounter.commitWillHappen(
            before: readDatabaseHeader()?.changeCounter, pagesWritten: pagesWritten(), isExact: isExact)
    }

    /// A transaction of this connection committed (`committed`) or rolled back.
    func externalChangesTransactionDidEnd(committed: Bool) {
        guard let tracker = observation.externalChanges, tracker.isActive, !tracker.isWAL else { return }
        if committed {
            tracker.changeCounter.commitDidHappen(pagesWritten: pagesWritten())
        } else {
            tracker.changeCounter.transactionDidRollBack(pagesWritten: pagesWritten())
        }
    }
}

/// What a check reads of the database header.
struct DatabaseHeader: Equatable {
    var isWAL: Bool
    var changeCounter: UInt32
}

extension WALIndexHeader {
    /// Whether the wal-index shows the log where `position` stands: nothing published since.
    func isAt(_ position: WALFile.Position) -> Bool {
        salt1 == position.salt1 && salt2 == position.salt2 && maxFrame == position.frame
    }
}

// MARK: - Logging this connection's transactions

extension Database {
    /// A transaction statement starts: BEGIN or SAVEPOINT outside of a transaction starts
    /// gathering what the transaction writes; COMMIT or RELEASE inside a transaction writes
    /// its entry first, if it logs.
    @inline(never)
    func commitLogTransactionStatementWillStart(_ statement: Statement) {
        guard let tracker = observation.externalChanges, tracker.logsChangedTables else { return }
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
            withHiddenWrites { tracker.writeEntry(key: keyOfNextCommit(tracker)) }
        }
    }

    /// A statement starts (or was compiled again): what it writes may go in the entry.
    /// (The check here, before the class access, keeps the reads of other statements cheap.)
    @inline(__always)
    func commitLogStatementWillStart(_ statement: Statement) {
        let report = statement.report
        if report.mayWrite || report.changesSchema {
            observation.externalChanges?.transaction.add(report)
        }
    }

    /// Creates the commit log, when the writer opens with
    /// ``Configuration/logsChangedTables``, in a transaction of its own that observers do not
    /// hear of and the trace does not show: never inside a transaction of the application.
    /// Tries for up to two seconds while another connection holds the write lock; a log
    /// that could not be created leaves this connection's commits without entries (other
    /// processes then see changes to the whole database, never miss one).
    func createCommitLog(evenIfCompiled: Bool = false) {
        guard let tracker = observation.externalChanges, tracker.logsChangedTables,
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
