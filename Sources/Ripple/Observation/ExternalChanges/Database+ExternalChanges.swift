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
        tracker.isWAL = withUnobservedWork { readIsWAL() }
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

    /// Reads where the file stands now: the data version, the end of the log or the change
    /// counter, the last commit log entry.
    private func resetExternalChangeBaseline(_ tracker: ExternalChangeTracker) {
        tracker.forgetWALPosition()
        tracker.boundingIndex = nil
        if tracker.isWAL {
            // (The last visible commit: one whose frame is written but not published yet
            // comes after the position.)
            tracker.walPosition = withWALFile { visiblePosition($0) } ?? nil
        }
        withUnobservedReadTransaction {
            tracker.dataVersion = readDataVersion()
            if tracker.isWAL {
                alignDataVersionWithPosition(tracker)
            } else {
                tracker.changeCounter = readChangeCounter()
            }
        }
    }

    /// Whether a check would find commits of other connections visible (the data version
    /// moved since the last check): it would then read the commit log in a read
    /// transaction, which may wait for another process's lock. True also when the data
    /// version cannot be read: the check of an access of its own finds out.
    func externalCommitsMayBeVisible() -> Bool {
        guard !isClosed, let tracker = observation.externalChanges, tracker.isActive, !isInsideTransaction else { return false }
        guard let version = withUnobservedWork({ readDataVersion() }) else { return true }
        return version != tracker.dataVersion
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
        // WAL mode: the commits are read from the log first, up to the last one the
        // wal-index shows visible; then a read transaction, which sees all of them, reads
        // their entries. (In the other order, a commit published in between would be
        // counted without its entry.)
        tracker.isWAL = withUnobservedWork { readIsWAL() }
        let walStart = tracker.walPosition
        let walCommits = tracker.isWAL ? otherWALCommits(tracker) : nil
        let read = withUnobservedReadTransaction { () -> Bool in
            guard let version = readDataVersion() else { return false }
            let commits: [CommitKey]?
            let entries: [ExternalChangeVerdict.Entry]
            if tracker.isWAL {
                commits = walCommits
                entries = walStart.map { readLogEntries(CommitLog.walEntriesSQL, Int64($0.salt1), Int64($0.frame)) } ?? []
                tracker.changeCounter = nil
            } else {
                // Rollback-journal mode: the read transaction keeps writers out; the change
                // counter and the log agree.
                let counter = readChangeCounter()
                if let counter, let last = tracker.changeCounter {
                    commits = CommitKey.rollbackCommits(from: last, to: counter)
                    entries = readLogEntries(CommitLog.rollbackEntriesSQL, Int64(last), nil)
                } else {
                    commits = nil
                    entries = []
                }
                tracker.changeCounter = counter
                tracker.forgetWALPosition()
            }
            verdict = ExternalChangeVerdict(commits: commits, entries: entries, ownWriter: tracker.writerID)
            switch verdict {
            case .nothing, .tables: tracker.preciseVerdicts += 1
            case .fullDatabase: tracker.fullDatabaseVerdicts += 1
            }
            tracker.dataVersion = version
            if tracker.isWAL { alignDataVersionWithPosition(tracker) }
            return true
        }
        guard read == true else { return .checkAgainSoon }
        notifyExternalChanges(verdict)
        if tracker.hasPendingCommit {
            // Commits not visible yet: the data version moves again when they are, but
            // no file event may come then.
            tracker.hasPendingCommit = false
            return .checkAgainSoon
        }
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

    /// Called inside the read transaction that read the data version, after the position
    /// was set from the wal-index: the data version stands for the position only if no
    /// commit was published between the two reads (the wal-index did not move). Else it is
    /// forgotten: the next check counts from the position whatever the data version says.
    /// (A data version ahead of the position would hide the commits in between.)
    private func alignDataVersionWithPosition(_ tracker: ExternalChangeTracker) {
        let isAligned = tracker.walPosition != nil && tracker.boundingIndex != nil && readWALIndexHeader() == tracker.boundingIndex
        if !isAligned {
            tracker.dataVersion = nil
            tracker.hasPendingCommit = true
        }
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
        tracker.forgetOwnCommits()
    }

    /// The keys of the commits in the log since the last check, except this connection's
    /// own; nil when they cannot be told. Moves the position past the commits that are
    /// visible: a commit frame is written a little before the commit is published in the
    /// wal-index, and the refetches that follow must see each commit the position moves
    /// past. Commits not visible yet are counted by a later check (`hasPendingCommit`).
    private func otherWALCommits(_ tracker: ExternalChangeTracker) -> [CommitKey]? {
        defer { tracker.forgetOwnCommits() }
        tracker.boundingIndex = nil
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
            tracker.boundingIndex = index
            let visibleFrames = endFrames.filter { $0 <= index.maxFrame }
            var newPosition = end
            if visibleFrames.count < endFrames.count {
                tracker.hasPendingCommit = true
                if let lastVisible = visibleFrames.last {
                    guard let header = WALFile.header(read),
                          let checksum = WALFile.commitFrameChecksum(at: lastVisible, header: header, read)
                    else {
                        // (The position stays: the data version cannot stand for it.)
                        tracker.boundingIndex = nil
                        return nil
                    }
                    newPosition = WALFile.Position(salt1: end.salt1, salt2: end.salt2, frame: lastVisible, checksum: checksum)
                } else {
                    newPosition = position
                }
            }
            tracker.walPosition = newPosition
            // Since the position, the log was not reset: the frame numbers of this
            // connection's commits are those of this generation of the log.
            let own = Set(tracker.ownCommitFrames)
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
        observation.externalChanges?.boundingIndex = index
        if index.maxFrame == 0 {
            return WALFile.Position(salt1: header.salt1, salt2: header.salt2, frame: 0, checksum: header.checksum)
        }
        guard case .commits(let endFrames, _) = WALFile.scan(from: nil, read),
              endFrames.contains(index.maxFrame),
              let checksum = WALFile.commitFrameChecksum(at: index.maxFrame, header: header, read)
        else { return nil }
        return WALFile.Position(salt1: header.salt1, salt2: header.salt2, frame: index.maxFrame, checksum: checksum)
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
        guard let counter = readChangeCounter(), !tracker.isWAL else { return nil }
        return CommitKey(generation: nil, previous: Int64(counter))
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

    /// The file change counter of the database header, read through SQLite's file handle,
    /// inside a read transaction (which keeps writers from changing it meanwhile).
    private func readChangeCounter() -> UInt32? {
        guard let (file, methods) = sqliteFile(SQLITE_FCNTL_FILE_POINTER), let xRead = methods.xRead else { return nil }
        var bytes: [UInt8] = [0, 0, 0, 0]
        let code = bytes.withUnsafeMutableBytes { xRead(file, $0.baseAddress, 4, 24) }
        // (A short read fills the rest with zeros: the file of a new database is empty, and
        // its counter is zero.)
        guard code == SQLITE_OK || code == SQLITE_IOERR | (2 << 8) else { return nil }  // SQLITE_IOERR_SHORT_READ
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
        guard mayEnd, tracker.transaction.hasWrites else { return }
        withUnobservedWork {
            // (Read-only last: `sqlite3_db_readonly` looks the schema up by name, about 120
            // instructions at each commit, W5b, where the logging decision is cheaper.)
            if tracker.transactionLogs(), !isReadOnly { tracker.writeEntry(key: keyOfNextCommit(tracker)) }
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
            // (Read under the write lock: no commit comes between this mark and the commit.)
            let before = lastCommitMark()
            let ownCommitCount = tracker.ownCommitFrames.count
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
                tracker.writeEntry(key: keyOfNextCommit(tracker))
                tracker.transaction = transaction
            }
            if succeeded, sqlite3_exec(connection, "COMMIT", nil, nil, nil) == SQLITE_OK {
                // The WAL hook told the commit's last frame.
                if let before, tracker.ownCommitFrames.count == ownCommitCount + 1, let endFrame = tracker.ownCommitFrames.last {
                    tracker.hiddenCommits.record(before: before, endFrame: endFrame)
                }
                return true
            }
            sqlite3_exec(connection, "ROLLBACK", nil, nil, nil)
            return false
        }
    }
}
