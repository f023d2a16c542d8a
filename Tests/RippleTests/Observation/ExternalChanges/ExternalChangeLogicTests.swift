import CSQLite
import Foundation
import XCTest

@testable import Ripple

/// The pure parts of the observation of other processes: the scheduler of checks, the
/// verdict, the reading of write-ahead logs.
final class ExternalChangeLogicTests: XCTestCase {
    // MARK: - ExternalCheckScheduler

    func testSchedulerRunsAtOnceWhenIdleThenKeepsTheMinimumInterval() {
        var scheduler = ExternalCheckScheduler(minimumInterval: 100, maximumInterval: 100)
        XCTAssertEqual(scheduler.request(now: 1000), .check)
        XCTAssertEqual(scheduler.request(now: 1001), .none, "a planned check serves later requests")
        XCTAssertTrue(scheduler.checkWillStart(now: 1002))
        XCTAssertEqual(scheduler.checkDidEnd(now: 1010, foundChanges: true), .none)
        // Too soon after the last start: later.
        XCTAssertEqual(scheduler.request(now: 1050), .checkAt(1102))
        XCTAssertTrue(scheduler.checkWillStart(now: 1102))
        XCTAssertEqual(scheduler.checkDidEnd(now: 1103, foundChanges: true), .none)
        XCTAssertEqual(scheduler.request(now: 5000), .check)
    }

    func testSchedulerNeverDropsARequestThatComesDuringACheck() {
        var scheduler = ExternalCheckScheduler(minimumInterval: 100, maximumInterval: 100)
        XCTAssertEqual(scheduler.request(now: 0), .check)
        XCTAssertTrue(scheduler.checkWillStart(now: 0))
        // Requests during the check: one more check after it, not one per request.
        XCTAssertEqual(scheduler.request(now: 10), .none)
        XCTAssertEqual(scheduler.request(now: 20), .none)
        XCTAssertEqual(scheduler.checkDidEnd(now: 30, foundChanges: true), .checkAt(100))
        XCTAssertTrue(scheduler.checkWillStart(now: 100))
        XCTAssertEqual(scheduler.checkDidEnd(now: 300, foundChanges: true), .none)
        // Long after: at once.
        XCTAssertEqual(scheduler.request(now: 400), .check)
    }

    func testSchedulerWidensTheIntervalWhileChecksFindNothing() {
        var scheduler = ExternalCheckScheduler(minimumInterval: 100, maximumInterval: 400)
        XCTAssertEqual(scheduler.request(now: 0), .check)
        XCTAssertTrue(scheduler.checkWillStart(now: 0))
        XCTAssertEqual(scheduler.checkDidEnd(now: 1, foundChanges: false), .none)
        XCTAssertEqual(scheduler.request(now: 2), .checkAt(200))
        XCTAssertTrue(scheduler.checkWillStart(now: 200))
        XCTAssertEqual(scheduler.checkDidEnd(now: 201, foundChanges: false), .none)
        XCTAssertEqual(scheduler.request(now: 202), .checkAt(600))
        XCTAssertTrue(scheduler.checkWillStart(now: 600))
        XCTAssertEqual(scheduler.checkDidEnd(now: 601, foundChanges: false), .none)
        XCTAssertEqual(scheduler.request(now: 602), .checkAt(1000), "at most the maximum")
        XCTAssertTrue(scheduler.checkWillStart(now: 1000))
        XCTAssertEqual(scheduler.checkDidEnd(now: 1001, foundChanges: true), .none)
        XCTAssertEqual(scheduler.request(now: 1002), .checkAt(1100), "back to the minimum")
    }

    func testSchedulerResetForgetsPlannedChecks() {
        var scheduler = ExternalCheckScheduler(minimumInterval: 100, maximumInterval: 100)
        XCTAssertEqual(scheduler.request(now: 0), .check)
        scheduler.reset()
        XCTAssertFalse(scheduler.checkWillStart(now: 1), "a check planned before a reset does not run")
        XCTAssertEqual(scheduler.request(now: 2), .check)
        XCTAssertTrue(scheduler.checkWillStart(now: 2))
        scheduler.reset()
        XCTAssertEqual(scheduler.checkDidEnd(now: 3, foundChanges: true), .none)
    }

    // MARK: - ExternalChangeVerdict

    private func entry(_ previous: Int64, generation: UInt32? = 9, writer: Int64 = 7, _ tables: Set<String>?) -> ExternalChangeVerdict.Entry {
        .init(key: CommitKey(generation: generation, previous: previous), writer: writer, tables: tables)
    }

    func testVerdictIsPreciseOnlyWhenEachCommitFindsItsEntry() {
        // Two commits after frame 10: they end at frames 12 and 15.
        let commits = CommitKey.walCommits(generation: 9, start: 10, endFrames: [12, 15])
        XCTAssertEqual(commits, [CommitKey(generation: 9, previous: 10), CommitKey(generation: 9, previous: 12)])
        let entries = [entry(10, ["player"]), entry(12, ["team", "player"])]
        XCTAssertEqual(ExternalChangeVerdict(commits: commits, entries: entries, ownWriter: 1), .tables(["player", "team"]))
        // A commit without its entry: anything may have changed.
        XCTAssertEqual(ExternalChangeVerdict(commits: commits, entries: [entries[0]], ownWriter: 1), .fullDatabase)
        XCTAssertEqual(
            ExternalChangeVerdict(commits: CommitKey.walCommits(generation: 9, start: 10, endFrames: [12, 15, 17]), entries: entries, ownWriter: 1),
            .fullDatabase)
        // An entry of another generation, or of a commit that is not there (not visible
        // yet, counted already), describes none of these commits.
        XCTAssertEqual(
            ExternalChangeVerdict(commits: commits, entries: [entries[0], entry(12, generation: 8, ["team"])], ownWriter: 1), .fullDatabase)
        XCTAssertEqual(ExternalChangeVerdict(commits: [commits[0]], entries: entries + [entry(15, ["x"])], ownWriter: 1), .tables(["player"]))
        // Unknown commits.
        XCTAssertEqual(ExternalChangeVerdict(commits: nil, entries: entries, ownWriter: 1), .fullDatabase)
        // Nothing committed.
        XCTAssertEqual(ExternalChangeVerdict(commits: [], entries: [], ownWriter: 1), .nothing)
    }

    func testVerdictSkipsOwnEntriesAndWidensForSchemaChanges() {
        let commits = CommitKey.rollbackCommits(from: 41, to: 43)
        XCTAssertEqual(commits, [CommitKey(generation: nil, previous: 41), CommitKey(generation: nil, previous: 42)])
        XCTAssertEqual(
            ExternalChangeVerdict(
                commits: commits, entries: [entry(41, generation: nil, writer: 1, ["player"]), entry(42, generation: nil, ["team"])], ownWriter: 1),
            .tables(["team"]))
        XCTAssertEqual(
            ExternalChangeVerdict(commits: [commits[0]], entries: [entry(41, generation: nil, writer: 1, ["player"])], ownWriter: 1), .nothing)
        XCTAssertEqual(ExternalChangeVerdict(commits: [commits[0]], entries: [entry(41, generation: nil, [])], ownWriter: 1), .nothing)
        XCTAssertEqual(
            ExternalChangeVerdict(commits: commits, entries: [entry(41, generation: nil, ["a"]), entry(42, generation: nil, nil)], ownWriter: 1),
            .fullDatabase)
        // A counter that wrapped around.
        XCTAssertEqual(CommitKey.rollbackCommits(from: UInt32.max, to: 1).map(\.previous), [Int64(UInt32.max), 0])
    }

    func testCommitLogTablesRoundTrip() {
        XCTAssertEqual(CommitLog.decode(CommitLog.encode(["player", "team"])), ["player", "team"])
        XCTAssertEqual(CommitLog.decode(CommitLog.encode([])), [])
        XCTAssertNil(CommitLog.decode(CommitLog.encode(nil)))
        XCTAssertTrue(RippleTables.isHidden("_RIPPLE_COMMIT_LOG"))
        XCTAssertFalse(RippleTables.isHidden("player"))
    }

    // MARK: - WALFile

    /// A database in WAL mode whose log is never checkpointed, and a reader of its log
    /// file's bytes as they are now.
    private func makeWAL() throws -> (connection: OpaquePointer, path: String) {
        let path = try makeTemporaryDatabasePath(self)
        var connection: OpaquePointer?
        XCTAssertEqual(sqlite3_open(path, &connection), SQLITE_OK)
        XCTAssertEqual(
            sqlite3_exec(connection, "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; CREATE TABLE t (x)", nil, nil, nil), SQLITE_OK)
        addTeardownBlock { sqlite3_close(connection) }
        return (connection!, path)
    }

    private func bytes(ofWALAt path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path + "-wal")))
    }

    private func reader(_ bytes: [UInt8]) -> WALFile.Read {
        return { offset, buffer in
            let start = Int(offset)
            guard start + buffer.count <= bytes.count else { return false }
            bytes.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[start..<(start + buffer.count)])) }
            return true
        }
    }

    func testScanCountsEachCommit() throws {
        let (connection, path) = try makeWAL()
        var bytes = try bytes(ofWALAt: path)
        guard case .commits(let initial, let start) = WALFile.scan(from: nil, reader(bytes)) else {
            return XCTFail("the log is readable")
        }
        XCTAssertEqual(initial.count, 1, "CREATE TABLE")
        for index in 0..<5 {
            // One commit of one page, one of several pages.
            let sql = index % 2 == 0 ? "INSERT INTO t VALUES (1)" : "INSERT INTO t SELECT zeroblob(9000) FROM t LIMIT 3"
            XCTAssertEqual(sqlite3_exec(connection, sql, nil, nil, nil), SQLITE_OK)
        }
        bytes = try self.bytes(ofWALAt: path)
        guard case .commits(let frames, let end) = WALFile.scan(from: start, reader(bytes)) else {
            return XCTFail("the log is readable")
        }
        XCTAssertEqual(frames.count, 5)
        XCTAssertEqual(frames.last, end.frame)
        XCTAssertEqual(frames, frames.sorted())
        XCTAssertEqual(WALFile.scan(from: end, reader(bytes)), .commits(endFrames: [], end: end))

        // A transaction that rolled back left frames behind (its pages spilled), without
        // a commit frame: nothing to count.
        XCTAssertEqual(
            sqlite3_exec(connection, "PRAGMA cache_size = 2; BEGIN; INSERT INTO t SELECT zeroblob(5000) FROM t; ROLLBACK", nil, nil, nil), SQLITE_OK)
        XCTAssertEqual(WALFile.scan(from: end, reader(try self.bytes(ofWALAt: path))), .commits(endFrames: [], end: end))
    }

    func testScanIgnoresDamagedFramesAndSeesResets() throws {
        let (connection, path) = try makeWAL()
        guard case .commits(_, let start) = WALFile.scan(from: nil, reader(try bytes(ofWALAt: path))) else {
            return XCTFail("the log is readable")
        }
        XCTAssertEqual(sqlite3_exec(connection, "INSERT INTO t VALUES (1); INSERT INTO t VALUES (2)", nil, nil, nil), SQLITE_OK)
        var bytes = try bytes(ofWALAt: path)
        guard case .commits(let frames, _) = WALFile.scan(from: start, reader(bytes)) else { return XCTFail() }
        XCTAssertEqual(frames.count, 2)
        // A half-written last frame (a process died while writing it): not a commit.
        bytes[bytes.count - 1] ^= 0xFF
        guard case .commits(let damaged, _) = WALFile.scan(from: start, reader(bytes)) else { return XCTFail() }
        XCTAssertEqual(damaged, [frames[0]])
        // A truncated log.
        guard case .commits(let truncated, _) = WALFile.scan(from: start, reader(Array(bytes.prefix(bytes.count - 10)))) else { return XCTFail() }
        XCTAssertEqual(truncated, [frames[0]])
        // No header.
        XCTAssertEqual(WALFile.scan(from: start, reader(Array(bytes.prefix(10)))), .unreadable)

        // A checkpoint that resets the log: the position is lost.
        XCTAssertEqual(sqlite3_exec(connection, "PRAGMA wal_checkpoint(RESTART); INSERT INTO t VALUES (3)", nil, nil, nil), SQLITE_OK)
        XCTAssertEqual(WALFile.scan(from: start, reader(try self.bytes(ofWALAt: path))), .positionLost)
    }

    func testChecksumFollowsTheDocumentedAlgorithm() {
        // Two pairs of words, little-endian: s0 += x0 + s1; s1 += x1 + s0.
        let words: [UInt32] = [1, 2, 3, 4]
        let bytes = words.flatMap { word in withUnsafeBytes(of: word.littleEndian) { Array($0) } }
        var checksum = WALFile.Checksum()
        bytes.withUnsafeBytes { WALFile.accumulate(&checksum, $0[...], bigEndian: false) }
        // s0 = 0 + 1 + 0 = 1; s1 = 0 + 2 + 1 = 3; s0 = 1 + 3 + 3 = 7; s1 = 3 + 4 + 7 = 14.
        XCTAssertEqual(checksum, WALFile.Checksum(s0: 7, s1: 14))
        var bigEndian = WALFile.Checksum()
        let bigEndianBytes = words.flatMap { word in withUnsafeBytes(of: word.bigEndian) { Array($0) } }
        bigEndianBytes.withUnsafeBytes { WALFile.accumulate(&bigEndian, $0[...], bigEndian: true) }
        XCTAssertEqual(bigEndian, checksum)
    }
}
