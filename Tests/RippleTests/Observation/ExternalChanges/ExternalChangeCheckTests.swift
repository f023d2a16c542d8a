import XCTest

@testable import Ripple

/// The check of other processes' commits (`ExternalChangeTrackerState.check`), driven by
/// files given as plain values (``FakeExternalFiles``): no SQLite, no process, no thread.
final class ExternalChangeCheckTests: XCTestCase {
    private let ownWriter: Int64 = 1
    private let otherWriter: Int64 = 2

    /// A tracker's state, active, whose baseline was read from `files`.
    private func trackedState(_ files: FakeExternalFiles, logs: Bool = false) -> ExternalChangeTrackerState {
        var state = ExternalChangeTrackerState(writerID: ownWriter, logsChangedTables: logs)
        state.isActive = true
        state.resetBaseline(files)
        return state
    }

    /// A database in WAL mode whose log holds one visible commit.
    private func walFiles() -> FakeExternalFiles {
        let files = FakeExternalFiles()
        files.wal = FakeWAL()
        files.otherProcessCommitsToWAL(pages: 2)
        return files
    }

    private func entry(_ previous: Int, generation: UInt32?, writer: Int64, _ tables: Set<String>?) -> ExternalChangeVerdict.Entry {
        ExternalChangeVerdict.Entry(key: CommitKey(generation: generation, previous: Int64(previous)), writer: writer, tables: tables)
    }

    private func check(_ state: inout ExternalChangeTrackerState, _ files: FakeExternalFiles, deferring: Bool = false) -> ExternalCheckResult {
        state.check(files, deferringNotification: deferring)
    }

    // MARK: - WAL mode

    func testBaselineIsTheLastVisibleCommit() {
        let files = walFiles()
        let state = trackedState(files)
        XCTAssertTrue(state.isWAL)
        XCTAssertEqual(state.walPosition?.frame, 2)
        XCTAssertEqual(state.walPosition?.salt1, files.wal!.salt1)
        XCTAssertFalse(state.hasPendingCommit)
    }

    func testAnotherProcessCommitIsAChangeToTheWholeDatabaseWithoutTheLog() {
        let files = walFiles()
        var state = trackedState(files)
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .nothingNew, verdict: .nothing))

        files.otherProcessCommitsToWAL()
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .done, verdict: .fullDatabase))
        XCTAssertEqual(state.walPosition?.frame, 3, "the position moves past the commit")
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .nothingNew, verdict: .nothing), "told once")
        XCTAssertEqual(state.checks, 3)
    }

    func testAnotherProcessCommitNamesItsTablesThroughItsLogEntry() {
        let files = walFiles()
        var state = trackedState(files, logs: true)
        let generation = files.wal!.salt1
        let first = files.otherProcessCommitsToWAL()
        let second = files.otherProcessCommitsToWAL(pages: 3)
        files.logEntries = [
            entry(first, generation: generation, writer: otherWriter, ["player"]),
            entry(second, generation: generation, writer: otherWriter, ["team"]),
        ]
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .done, verdict: .tables(["player", "team"])))

        // A commit without its entry (the sqlite3 shell, another library).
        files.otherProcessCommitsToWAL()
        XCTAssertEqual(check(&state, files).verdict, .fullDatabase)
    }

    func testOwnCommitsAreSteppedOverWithoutReadingTheirFrames() {
        let files = walFiles()
        var state = trackedState(files, logs: true)
        for _ in 0..<3 {
            // The commit hook reads the wal-index, then SQLite's WAL hook tells the end.
            state.ownCommitWillHappen(files)
            files.otherProcessCommitsToWAL(pages: 2)
            state.ownCommitDidWrite(frameCount: files.wal!.frameCount) { files.pages }
        }
        let framesReadBefore = files.frameReads
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .nothingNew, verdict: .nothing))
        XCTAssertEqual(state.walPosition?.frame, 8)
        XCTAssertEqual(files.frameReads, framesReadBefore, "only the header of the last own commit frame is read")
        XCTAssertEqual(state.ownCommits.count, 0, "forgotten once stepped over")
    }

    /// After a checkpoint that copied the whole log, the connection's commit writes a new
    /// log (salt-1 plus one): the pages it wrote equal the frames the log holds after it,
    /// so the check knows it as its own and reads none of its frames.
    func testOwnCommitThatStartsANewLogIsSteppedOver() {
        let files = walFiles()
        var state = trackedState(files, logs: true)
        let salt1 = files.wal!.salt1
        files.walBackfill = files.wal!.frameCount
        files.pages = 40
        state.ownCommitWillHappen(files)
        files.wal!.restart(salt1: salt1 &+ 1, salt2: 0x5555)
        files.otherProcessCommitsToWAL(pages: 3)
        files.pages += 3
        state.ownCommitDidWrite(frameCount: files.wal!.frameCount) { files.pages }
        // And one more own commit, appended to the new log.
        state.ownCommitWillHappen(files)
        files.otherProcessCommitsToWAL(pages: 2)
        files.pages += 2
        state.ownCommitDidWrite(frameCount: files.wal!.frameCount) { files.pages }
        let framesReadBefore = files.frameReads
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .nothingNew, verdict: .nothing))
        XCTAssertEqual(state.walPosition?.salt1, salt1 &+ 1)
        XCTAssertEqual(state.walPosition?.frame, 5)
        XCTAssertEqual(files.frameReads, framesReadBefore)

        // Another writer's commit after them is seen.
        files.otherProcessCommitsToWAL()
        XCTAssertEqual(check(&state, files).verdict, .fullDatabase)
    }

    /// A commit whose counts do not prove that it started the new log (here, it wrote more
    /// pages than the log holds frames) leaves the check to find a new log: a change to
    /// the whole database, as before.
    func testANewLogNotProvedOwnIsAChangeToTheWholeDatabase() {
        let files = walFiles()
        var state = trackedState(files, logs: true)
        let salt1 = files.wal!.salt1
        files.walBackfill = files.wal!.frameCount
        state.ownCommitWillHappen(files)
        files.wal!.restart(salt1: salt1 &+ 1, salt2: 0x5555)
        files.otherProcessCommitsToWAL(pages: 3)
        files.pages += 4
        state.ownCommitDidWrite(frameCount: files.wal!.frameCount) { files.pages }
        XCTAssertEqual(check(&state, files).verdict, .fullDatabase)
    }

    func testOwnCommitsAmongOthersNeedNoEntry() {
        let files = walFiles()
        var state = trackedState(files, logs: true)
        let generation = files.wal!.salt1
        state.ownCommitWillHappen(files)
        files.otherProcessCommitsToWAL()
        state.ownCommitDidWrite(frameCount: files.wal!.frameCount) { files.pages }
        let other = files.otherProcessCommitsToWAL()
        files.logEntries = [entry(other, generation: generation, writer: otherWriter, ["team"])]
        let framesReadBefore = files.frameReads
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .done, verdict: .tables(["team"])))
        XCTAssertEqual(state.walPosition?.frame, files.wal!.frameCount)
        XCTAssertEqual(files.frameReads, framesReadBefore + 2, "another commit came between: the log is scanned")
    }

    func testACheckpointThatRestartsTheLogIsAChangeToTheWholeDatabase() {
        let files = walFiles()
        var state = trackedState(files, logs: true)
        files.wal!.restart(salt1: 0x3333, salt2: 0x4444)
        files.otherProcessCommitsToWAL()
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .done, verdict: .fullDatabase))
        XCTAssertEqual(state.walPosition?.salt1, 0x3333, "the position is found in the new generation")
        XCTAssertEqual(state.walPosition?.frame, 1)
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .nothingNew, verdict: .nothing))
    }

    func testACommitNotPublishedYetIsCheckedAgainSoon() {
        let files = walFiles()
        var state = trackedState(files)
        // Its commit frame is written; the wal-index does not show it yet.
        files.otherProcessCommitsToWAL(publishes: false)
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .checkAgainSoon, verdict: .nothing))
        XCTAssertEqual(state.walPosition?.frame, 2)
        files.walIndex = files.wal!.index()
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .done, verdict: .fullDatabase))
    }

    func testAWALIndexBeingWrittenIsCheckedAgainSoonNotAChangeToTheWholeDatabase() {
        let files = walFiles()
        var state = trackedState(files, logs: true)
        let generation = files.wal!.salt1
        let previous = files.otherProcessCommitsToWAL()
        files.logEntries = [entry(previous, generation: generation, writer: otherWriter, ["player"])]
        // The writer is between the two copies of the wal-index header: they differ.
        files.walIndex = nil
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .checkAgainSoon, verdict: .nothing))
        XCTAssertEqual(state.walPosition?.frame, 2, "the position stays")
        files.walIndex = files.wal!.index()
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .done, verdict: .tables(["player"])))
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .nothingNew, verdict: .nothing))
    }

    func testAWALIndexThatStaysUnreadableEndsInAChangeToTheWholeDatabase() {
        let files = walFiles()
        var state = trackedState(files, logs: true)
        files.otherProcessCommitsToWAL()
        files.walIndex = nil
        for attempt in 1..<ExternalChangeTrackerState.unreadableIndexChecksBeforeFullDatabase {
            XCTAssertEqual(
                check(&state, files), ExternalCheckResult(outcome: .checkAgainSoon, verdict: .nothing), "attempt \(attempt)")
        }
        // Never told is worse than told too much.
        XCTAssertEqual(check(&state, files).verdict, .fullDatabase)
        files.walIndex = files.wal!.index()
        XCTAssertEqual(check(&state, files).verdict, .fullDatabase, "the position is found again: from there on, precise")
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .nothingNew, verdict: .nothing))
    }

    func testOnlyPublishedCommitsMoveThePosition() {
        let files = walFiles()
        var state = trackedState(files)
        files.otherProcessCommitsToWAL()
        files.otherProcessCommitsToWAL(publishes: false)
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .checkAgainSoon, verdict: .fullDatabase))
        XCTAssertEqual(state.walPosition?.frame, 3, "after the published commit only")
        files.walIndex = files.wal!.index()
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .done, verdict: .fullDatabase))
        XCTAssertEqual(state.walPosition?.frame, 4)
    }

    func testADamagedFrameIsNoCommit() {
        let files = walFiles()
        var state = trackedState(files, logs: true)
        let generation = files.wal!.salt1
        let first = files.otherProcessCommitsToWAL()
        files.otherProcessCommitsToWAL()
        files.logEntries = [entry(first, generation: generation, writer: otherWriter, ["player"])]
        // The last frame fails its checksum (half written by a process that died): only
        // the commits before it count, and nothing crashes.
        files.wal!.damage(frame: files.wal!.frameCount)
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .done, verdict: .tables(["player"])))
        XCTAssertEqual(state.walPosition?.frame, 3)
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .nothingNew, verdict: .nothing))
    }

    func testATruncatedLogIsAChangeToTheWholeDatabase() {
        let files = walFiles()
        var state = trackedState(files)
        files.otherProcessCommitsToWAL()
        // Shorter than its header: nothing can be counted, and commits may be gone.
        files.wal!.truncate(to: 20)
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .checkAgainSoon, verdict: .fullDatabase))
        XCTAssertNil(state.walPosition)
        XCTAssertEqual(
            check(&state, files), ExternalCheckResult(outcome: .checkAgainSoon, verdict: .nothing),
            "no position yet: checked again")
    }

    func testGarbageInsteadOfTheLogHeaderIsAChangeToTheWholeDatabase() {
        let files = walFiles()
        var state = trackedState(files)
        files.otherProcessCommitsToWAL()
        files.wal!.damageHeader()
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .checkAgainSoon, verdict: .fullDatabase))
        XCTAssertNil(state.walPosition)
    }

    func testAnUnreadableFileIsCheckedAgainSoon() {
        let files = walFiles()
        var state = trackedState(files)
        files.databaseHeader = nil
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .checkAgainSoon, verdict: .nothing))
    }

    func testDeferredVerdictsAreToldOnceMerged() {
        let files = walFiles()
        var state = trackedState(files, logs: true)
        let generation = files.wal!.salt1
        let first = files.otherProcessCommitsToWAL()
        files.logEntries = [entry(first, generation: generation, writer: otherWriter, ["player"])]
        XCTAssertEqual(check(&state, files, deferring: true), ExternalCheckResult(outcome: .done, verdict: .nothing))
        XCTAssertEqual(state.deferredVerdict, .tables(["player"]))
        let second = files.otherProcessCommitsToWAL()
        files.logEntries! += [entry(second, generation: generation, writer: otherWriter, ["team"])]
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .done, verdict: .tables(["player", "team"])))
        XCTAssertNil(state.deferredVerdict)
    }

    func testAJournalModeChangeIsAChangeToTheWholeDatabase() {
        let files = walFiles()
        var state = trackedState(files)
        files.databaseHeader = DatabaseHeader(isWAL: false, changeCounter: 9)
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .done, verdict: .fullDatabase))
        XCTAssertFalse(state.isWAL)
        XCTAssertEqual(state.changeCounter.value, 9)
    }

    func testVisibleCommitsAreToldApartFromOwnForTheLog() {
        let files = walFiles()
        var state = trackedState(files, logs: true)
        XCTAssertFalse(state.externalCommitsMayBeVisible(files))
        files.otherProcessCommitsToWAL()
        XCTAssertTrue(state.externalCommitsMayBeVisible(files))
        state = trackedState(files, logs: false)
        files.otherProcessCommitsToWAL()
        XCTAssertFalse(state.externalCommitsMayBeVisible(files), "without the log, a check takes no lock")
    }

    // MARK: - Rollback-journal mode

    private func rollbackFiles(counter: UInt32 = 5) -> FakeExternalFiles {
        let files = FakeExternalFiles()
        files.databaseHeader = DatabaseHeader(isWAL: false, changeCounter: counter)
        return files
    }

    /// A commit of this connection that writes the file, and leaves the counter at `counter`.
    private func ownCommit(_ state: inout ExternalChangeTrackerState, _ files: FakeExternalFiles, counter: UInt32) {
        files.ownTransaction = true
        state.ownCommitWillHappen(files)
        files.pages += 1
        files.databaseHeader!.changeCounter = counter
        state.ownTransactionDidEnd(files, committed: true)
        files.ownTransaction = false
    }

    func testAnotherProcessChangesTheCounter() {
        let files = rollbackFiles()
        var state = trackedState(files)
        XCTAssertFalse(state.isWAL)
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .nothingNew, verdict: .nothing))
        files.databaseHeader!.changeCounter = 6
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .done, verdict: .fullDatabase))
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .nothingNew, verdict: .nothing))
    }

    func testTheCounterIsNotReadWhileAnotherConnectionWrites() {
        let files = rollbackFiles()
        var state = trackedState(files)
        files.otherWriterHoldsLock = true
        files.databaseHeader!.changeCounter = 6
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .checkAgainSoon, verdict: .nothing))
        files.otherWriterHoldsLock = false
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .done, verdict: .fullDatabase))
    }

    func testCounterChangesNameTheirTablesThroughTheLog() {
        let files = rollbackFiles()
        var state = trackedState(files, logs: true)
        // Its own commit: the counter from 5 to 6, known without an entry.
        ownCommit(&state, files, counter: 6)
        // Another process's, from 6 to 7.
        files.databaseHeader!.changeCounter = 7
        files.logEntries = [entry(6, generation: nil, writer: otherWriter, ["team"])]
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .done, verdict: .tables(["team"])))
        XCTAssertEqual(state.loggedCounter, 7)

        // A commit that changed the schema.
        files.databaseHeader!.changeCounter = 8
        files.logEntries = [entry(7, generation: nil, writer: otherWriter, nil)]
        XCTAssertEqual(check(&state, files).verdict, .fullDatabase)
    }

    func testOwnCommitsLeaveNothingToTell() {
        let files = rollbackFiles()
        var state = trackedState(files)
        for counter: UInt32 in 6...8 {
            ownCommit(&state, files, counter: counter)
        }
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .nothingNew, verdict: .nothing))
    }

    func testAnOwnCommitThatFindsTheCounterMovedTellsTheOtherOne() {
        let files = rollbackFiles()
        var state = trackedState(files)
        files.databaseHeader!.changeCounter = 6  // another process
        ownCommit(&state, files, counter: 7)
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .done, verdict: .fullDatabase))
    }

    func testALogThatCannotBeReadIsAChangeToTheWholeDatabase() {
        let files = rollbackFiles()
        var state = trackedState(files, logs: true)
        files.databaseHeader!.changeCounter = 6
        files.logEntries = nil
        XCTAssertEqual(check(&state, files), ExternalCheckResult(outcome: .done, verdict: .fullDatabase))
    }
}
