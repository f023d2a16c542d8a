/// What a check of the file asks of the monitor next.
enum ExternalCheckOutcome: Equatable {
    /// Nothing committed elsewhere since the last check.
    case nothingNew
    /// Commits of other connections were found.
    case done
    /// The file could not be read now (locked by a writer), or it holds a commit of
    /// another process that is not visible yet: check again soon.
    case checkAgainSoon
}

/// What a check found: what it asks of the monitor next, and what observers hear now
/// (``ExternalChangeVerdict/nothing`` when the verdict waits for an access of its own).
struct ExternalCheckResult: Equatable {
    var outcome: ExternalCheckOutcome
    var verdict: ExternalChangeVerdict
}

// The check itself: it reads the file through `reader`, compares it with where the last
// check left it, and moves on. It calls out to no observer: the caller tells the verdict.
extension ExternalChangeTrackerState {
    /// Reads where the file stands now: the end of the write-ahead log, or the change
    /// counter. What cannot be read now is found by a later check, which then tells a
    /// change to the whole database.
    mutating func resetBaseline<Reader: ExternalFileReader>(_ reader: Reader) {
        forgetWALPosition()
        isWAL = reader.readDatabaseHeader()?.isWAL ?? false
        if isWAL {
            // (The last visible commit: one whose frame is written but not published yet
            // comes after the position.)
            walPosition = reader.withWALFile { Self.visiblePosition($0, reader) } ?? nil
            if walPosition == nil { hasPendingCommit = true }
        } else {
            let counter = Self.changeCounterWithoutWriter(reader)
            changeCounter.reset(to: counter, pagesWritten: reader.pagesWritten())
            loggedCounter = counter
            if counter == nil { hasPendingCommit = true }
        }
    }

    /// Checks the file for commits of other connections, outside of any transaction of
    /// this connection (see `Database.checkExternalChanges(deferringNotification:)`).
    ///
    /// - parameter deferringNotification: what is found waits in `deferredVerdict`.
    mutating func check<Reader: ExternalFileReader>(_ reader: Reader, deferringNotification: Bool) -> ExternalCheckResult {
        checks += 1
        guard let header = reader.readDatabaseHeader() else { return ExternalCheckResult(outcome: .checkAgainSoon, verdict: .nothing) }
        if header.isWAL != isWAL {
            // The journal mode changed: where the file stands is read anew, and everything
            // may have changed.
            resetBaseline(reader)
            deferredVerdict = deferringNotification ? .fullDatabase : nil
            return ExternalCheckResult(outcome: .done, verdict: deferringNotification ? .nothing : .fullDatabase)
        }
        let found = isWAL ? checkWAL(reader) : checkRollbackJournal(reader)
        guard var verdict = found else { return ExternalCheckResult(outcome: .checkAgainSoon, verdict: .nothing) }
        if let deferred = deferredVerdict {
            verdict = deferred.merged(with: verdict)
            deferredVerdict = nil
        }
        var told = verdict
        if deferringNotification && verdict != .nothing {
            deferredVerdict = verdict
            told = .nothing
        }
        if hasPendingCommit {
            // Commits not visible yet: they will be, but no file event may come then.
            hasPendingCommit = false
            return ExternalCheckResult(outcome: .checkAgainSoon, verdict: told)
        }
        return ExternalCheckResult(outcome: verdict == .nothing ? .nothingNew : .done, verdict: told)
    }

    /// Whether a check would find commits of other connections and read their entries in
    /// the commit log, in a read transaction that may meet another process's lock.
    func externalCommitsMayBeVisible<Reader: ExternalFileReader>(_ reader: Reader) -> Bool {
        guard isActive, logsChangedTables else { return false }
        if isWAL {
            guard let position = walPosition, let index = reader.readWALIndexHeader() else { return true }
            return !index.isAt(position)
        }
        guard let counter = Self.changeCounterWithoutWriter(reader) else { return true }
        return counter != changeCounter.value
    }

    // MARK: WAL mode

    /// The commits published in the wal-index since the position, less this connection's
    /// own; nil when the file cannot be read now.
    private mutating func checkWAL<Reader: ExternalFileReader>(_ reader: Reader) -> ExternalChangeVerdict? {
        guard let start = walPosition else {
            // Not known yet, or lost: once found, commits may have gone unseen before it.
            guard let position = reader.withWALFile({ Self.visiblePosition($0, reader) }) ?? nil else {
                hasPendingCommit = true
                return nil
            }
            walPosition = position
            forgetOwnCommits()
            return .fullDatabase
        }
        if let index = reader.readWALIndexHeader() {
            if let end = ownCommits.endFrameExplainingAll(salt1: start.salt1, salt2: start.salt2, frame: start.frame, index: index) {
                // Only this connection committed since the position: it moves past its
                // commits without scanning their frames.
                forgetOwnCommits()
                if let position = reader.withWALFile({ read -> WALFile.Position? in
                    guard let header = WALFile.header(read), header.salt1 == index.salt1, header.salt2 == index.salt2
                    else { return nil }
                    return WALFile.commitPosition(at: end, header: header, read)
                }) ?? nil {
                    walPosition = position
                    if Self.walHoldsPendingCommit(after: position, reader) { hasPendingCommit = true }
                    return .nothing
                }
                // (The frame could not be read: the log is scanned below.)
            } else if index.isAt(start) {
                // Nothing published since the position. Is a commit on its way (its commit
                // frame written, but not visible yet)?
                if Self.walHoldsPendingCommit(after: start, reader) { hasPendingCommit = true }
                return .nothing
            }
        }
        let commits: [CommitKey]
        switch otherWALCommits(reader) {
        case .commits(let found): commits = found
        case .notReadableNow: return nil
        case .lost: return .fullDatabase
        }
        if commits.isEmpty { return .nothing }
        guard logsChangedTables else { return .fullDatabase }
        // The commits were read from the log first, up to the last one the wal-index shows
        // visible; the read transaction that reads their entries sees all of them. (In the
        // other order, a commit published in between would be counted without its entry.)
        let entries = reader.walLogEntries(generation: start.salt1, from: start.frame)
        return ExternalChangeVerdict(commits: commits, entries: entries, ownWriter: writerID)
    }

    /// Nothing published since `position`: whether a commit is on its way (its commit
    /// frame written after the position, but not visible yet).
    private static func walHoldsPendingCommit<Reader: ExternalFileReader>(after position: WALFile.Position, _ reader: Reader) -> Bool {
        reader.withWALFile { read in
            guard let header = WALFile.header(read),
                position.salt1 == header.salt1, position.salt2 == header.salt2,
                case .commits(let frames, _) = WALFile.scan(from: position, read)
            else { return false }
            return !frames.isEmpty
        } ?? false
    }

    /// What the log shows since the position (see `otherWALCommits`).
    private enum WALCommits {
        /// The keys of the visible commits of other connections (maybe none).
        case commits([CommitKey])
        /// A writer is publishing a commit or starting a new generation of the log: the
        /// position stays, and a check soon reads the log again.
        case notReadableNow
        /// No position, or lost (the log was reset): commits may have gone unseen.
        case lost
    }

    /// The keys of the commits in the log since the last check, except this connection's
    /// own. Moves the position past the commits that are visible: a commit frame is
    /// written a little before the commit is published in the wal-index, and the refetches
    /// that follow must see each commit the position moves past. Commits not visible yet
    /// are counted by a later check (`hasPendingCommit`).
    private mutating func otherWALCommits<Reader: ExternalFileReader>(_ reader: Reader) -> WALCommits {
        let found = reader.withWALFile { read -> WALCommits in
            guard let position = walPosition,
                case .commits(let endFrames, let end) = WALFile.scan(from: position, read)
            else {
                walPosition = Self.visiblePosition(read, reader)
                if walPosition == nil { hasPendingCommit = true }
                return .lost
            }
            guard let index = reader.readWALIndexHeader(), index.salt1 == end.salt1, index.salt2 == end.salt2 else {
                // The wal-index does not tell which commits are visible (a writer is
                // changing it): the position stays, until it does. Nothing is lost, so
                // this is no change to the whole database, unless it lasts.
                unreadableIndexChecks += 1
                if unreadableIndexChecks >= Self.unreadableIndexChecksBeforeFullDatabase {
                    unreadableIndexChecks = 0
                    walPosition = Self.visiblePosition(read, reader)
                    if walPosition == nil { hasPendingCommit = true }
                    return .lost
                }
                return .notReadableNow
            }
            unreadableIndexChecks = 0
            let visibleFrames = endFrames.filter { $0 <= index.maxFrame }
            var newPosition = end
            if visibleFrames.count < endFrames.count {
                hasPendingCommit = true
                if let lastVisible = visibleFrames.last {
                    guard let header = WALFile.header(read),
                        let lastVisiblePosition = WALFile.commitPosition(at: lastVisible, header: header, read)
                    else {
                        // (The position stays, until that frame can be read.)
                        return .notReadableNow
                    }
                    newPosition = lastVisiblePosition
                } else {
                    newPosition = position
                }
            }
            walPosition = newPosition
            // Since the position, the log was not reset: the frame numbers of this
            // connection's commits are those of this generation of the log.
            let own = Set(ownCommits.endFrames)
            return .commits(
                CommitKey.walCommits(generation: position.salt1, start: position.frame, endFrames: visibleFrames)
                    .enumerated().filter { !own.contains(visibleFrames[$0.offset]) }.map(\.element))
        }
        // (The log cannot be opened: commits cannot be told.)
        guard let found else {
            forgetOwnCommits()
            return .lost
        }
        // (This connection's commits since a position that stays are still to be stepped
        // over by the next check.)
        if case .notReadableNow = found { return found }
        forgetOwnCommits()
        return found
    }

    /// The position after the last visible commit of the log; nil when the log or the
    /// wal-index cannot be read, or disagree (a writer is resetting the log).
    private static func visiblePosition<Reader: ExternalFileReader>(_ read: WALFile.Read, _ reader: Reader) -> WALFile.Position? {
        guard let header = WALFile.header(read), let index = reader.readWALIndexHeader(),
            index.salt1 == header.salt1, index.salt2 == header.salt2
        else { return nil }
        if index.maxFrame == 0 {
            return WALFile.Position(salt1: header.salt1, salt2: header.salt2, frame: 0, checksum: header.checksum)
        }
        guard case .commits(let endFrames, _) = WALFile.scan(from: nil, read), endFrames.contains(index.maxFrame)
        else { return nil }
        return WALFile.commitPosition(at: index.maxFrame, header: header, read)
    }

    // MARK: Rollback-journal mode

    /// Whether the change counter moved by another connection's commits; nil while another
    /// connection holds the write lock.
    private mutating func checkRollbackJournal<Reader: ExternalFileReader>(_ reader: Reader) -> ExternalChangeVerdict? {
        guard let counter = Self.changeCounterWithoutWriter(reader) else { return nil }
        let pages = reader.pagesWritten()
        changeCounter.settle(pagesWritten: pages)
        let ownCommits = changeCounter.ownCommits
        let loggedFrom = loggedCounter
        loggedCounter = counter
        guard changeCounter.check(counter: counter, pagesWritten: pages) else { return .nothing }
        guard logsChangedTables, let loggedFrom else { return .fullDatabase }
        // The entries are read under the shared lock of a read transaction, which keeps
        // writers out: the change counter read there and the log agree. It begins only
        // while no other connection holds the write lock; else (the counter already moved
        // on) a change to the whole database is told now rather than never.
        guard reader.otherConnectionHoldsWriteLock() == false,
            let (logged, entries) = reader.rollbackLogEntries(from: loggedFrom)
        else { return .fullDatabase }
        loggedCounter = logged
        changeCounter.reset(to: logged, pagesWritten: pages)
        // This connection's own commits need no entry: their keys are known.
        let own = ownCommits.map {
            ExternalChangeVerdict.Entry(key: CommitKey(generation: nil, previous: Int64($0)), writer: writerID, tables: [])
        }
        return ExternalChangeVerdict(
            commits: CommitKey.rollbackCommits(from: loggedFrom, to: logged), entries: own + entries, ownWriter: writerID)
    }

    /// The file change counter, read while no other connection holds the write lock
    /// (before and after the read: the counter is not half-way through a commit); nil
    /// otherwise.
    private static func changeCounterWithoutWriter<Reader: ExternalFileReader>(_ reader: Reader) -> UInt32? {
        if reader.ownTransactionHoldsLock() {
            // (The file locks would tell this connection's own lock.)
            return reader.readDatabaseHeader()?.changeCounter
        }
        guard reader.otherConnectionHoldsWriteLock() == false, let counter = reader.readDatabaseHeader()?.changeCounter,
            reader.otherConnectionHoldsWriteLock() == false
        else { return nil }
        return counter
    }

    // MARK: This connection's own commits

    /// SQLite is about to commit a write transaction of this connection (its commit hook),
    /// which holds the write lock: in WAL mode the wal-index is read (see ``OwnWALCommits``),
    /// in rollback-journal mode the change counter (see ``ExpectedChangeCounter``).
    /// (Inlined in the commit hook, which runs at each commit.)
    @inline(__always)
    mutating func ownCommitWillHappen<Reader: ExternalFileReader>(_ reader: Reader) {
        guard isActive else { return }
        if isWAL {
            let index = reader.readWALIndexHeaderAndBackfill()
            let start = index?.header
            // (The pages written, for a commit that may start a new log; an exact count
            // needs a transaction that writes the main database only.)
            var pages: Int64?
            if let start, OwnWALCommits.mayStartNewLog(start, backfilled: index?.backfill), reader.transactionWritesMainDatabaseOnly() {
                pages = reader.pagesWritten()
            }
            ownCommits.commitWillHappen(start: start, pagesWritten: pages)
            return
        }
        changeCounter.commitWillHappen(
            before: reader.readDatabaseHeader()?.changeCounter, pagesWritten: reader.pagesWritten(),
            isExact: reader.transactionWritesMainDatabaseOnly())
    }

    /// A transaction of this connection committed (`committed`) or rolled back.
    mutating func ownTransactionDidEnd<Reader: ExternalFileReader>(_ reader: Reader, committed: Bool) {
        guard isActive, !isWAL else { return }
        if committed {
            changeCounter.commitDidHappen(pagesWritten: reader.pagesWritten())
        } else {
            changeCounter.transactionDidRollBack(pagesWritten: reader.pagesWritten())
        }
    }

    /// The key of the commit that the running transaction is about to make (see
    /// ``CommitKey``), read while the transaction holds the write lock; nil when unknown.
    mutating func keyOfNextCommit<Reader: ExternalFileReader>(_ reader: Reader) -> CommitKey? {
        if let key = reader.withWALFile({ read -> CommitKey? in
            guard let header = WALFile.header(read) else { return nil }
            var start = writerWALPosition
            if start?.salt1 != header.salt1 || start?.salt2 != header.salt2 { start = nil }
            var scan = WALFile.scan(from: start, read)
            if case .positionLost = scan { scan = WALFile.scan(from: nil, read) }
            guard case .commits(_, let end) = scan else { return nil }
            writerWALPosition = end
            return CommitKey(generation: end.salt1, previous: Int64(end.frame))
        }), let key {
            return key
        }
        // Rollback-journal mode: the change counter, which the write lock keeps still.
        guard let counter = reader.readDatabaseHeader()?.changeCounter, !isWAL else { return nil }
        return CommitKey(generation: nil, previous: Int64(counter))
    }
}

extension WALIndexHeader {
    /// Whether the wal-index shows the log where `position` stands: nothing published since.
    func isAt(_ position: WALFile.Position) -> Bool {
        salt1 == position.salt1 && salt2 == position.salt2 && maxFrame == position.frame
    }
}
