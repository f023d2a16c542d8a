import CSQLite
import Dispatch
import Foundation
import XCTest

@testable import Ripple

/// A pool's writer never fails with SQLITE_BUSY because one of the pool's readers took the
/// WAL write lock for a moment while it began a read transaction (see
/// `ReadTransactionStarts`), and still fails at once when another connection holds it.
final class PoolWriterBusyTests: XCTestCase {
    private typealias Counts = ReadTransactionStarts.Counts

    // MARK: - The rule, without SQLite

    func testTheFirstCallForALockTriesAgain() {
        var rule = OwnReadersBusyRule()
        XCTAssertTrue(rule.shouldRetry(tries: 0, counts: Counts(running: 0, ended: 0), now: 10))
    }

    func testTriesAgainWhileAReaderBeginsATransaction() {
        var rule = OwnReadersBusyRule()
        XCTAssertTrue(rule.shouldRetry(tries: 0, counts: Counts(running: 1, ended: 7), now: 0))
        XCTAssertTrue(rule.shouldRetry(tries: 1, counts: Counts(running: 1, ended: 7), now: 1_000))
        XCTAssertTrue(rule.shouldRetry(tries: 2, counts: Counts(running: 2, ended: 7), now: 2_000))
    }

    func testTriesAgainWhenAReaderEndedSinceTheLastCall() {
        var rule = OwnReadersBusyRule()
        XCTAssertTrue(rule.shouldRetry(tries: 0, counts: Counts(running: 1, ended: 7), now: 0))
        // The reader that held the lock ended between the two calls.
        XCTAssertTrue(rule.shouldRetry(tries: 1, counts: Counts(running: 0, ended: 8), now: 1_000))
        // Nothing began or ended since: the lock is someone else's.
        XCTAssertFalse(rule.shouldRetry(tries: 2, counts: Counts(running: 0, ended: 8), now: 2_000))
    }

    func testGivesUpWhenNoReaderBeganOrEnded() {
        var rule = OwnReadersBusyRule()
        XCTAssertTrue(rule.shouldRetry(tries: 0, counts: Counts(running: 0, ended: 3), now: 0))
        XCTAssertFalse(rule.shouldRetry(tries: 1, counts: Counts(running: 0, ended: 3), now: 1_000))
    }

    func testGivesUpAfterTheMaximumWait() {
        var rule = OwnReadersBusyRule()
        let start: UInt64 = 5_000
        XCTAssertTrue(rule.shouldRetry(tries: 0, counts: Counts(running: 1, ended: 0), now: start))
        XCTAssertTrue(
            rule.shouldRetry(
                tries: 1, counts: Counts(running: 1, ended: 0), now: start + OwnReadersBusyRule.maximumWait - 1))
        XCTAssertFalse(
            rule.shouldRetry(
                tries: 2, counts: Counts(running: 1, ended: 0), now: start + OwnReadersBusyRule.maximumWait))
    }

    func testEachLockStartsAfresh() {
        var rule = OwnReadersBusyRule()
        XCTAssertTrue(rule.shouldRetry(tries: 0, counts: Counts(running: 0, ended: 0), now: 0))
        XCTAssertFalse(rule.shouldRetry(tries: 1, counts: Counts(running: 0, ended: 0), now: 1))
        // A later lock, long after: its own first call, its own wait.
        let later = 10 * OwnReadersBusyRule.maximumWait
        XCTAssertTrue(rule.shouldRetry(tries: 0, counts: Counts(running: 1, ended: 0), now: later))
        XCTAssertTrue(rule.shouldRetry(tries: 1, counts: Counts(running: 1, ended: 0), now: later + 1))
    }

    func testCountingCountsTheStep() {
        let starts = ReadTransactionStarts()
        let inside = starts.counting { starts.current }
        XCTAssertEqual(inside, Counts(running: 1, ended: 0))
        XCTAssertEqual(starts.current, Counts(running: 0, ended: 1))
    }

    // MARK: - A pool

    private func makePool() throws -> (DatabasePool, path: String) {
        let path = try makeTemporaryDatabasePath(self)
        // Deferred transactions: a write may come after a read, and wait for the lock at
        // its first write.
        var config = Configuration()
        config.defaultTransactionKind = .deferred
        let dbPool = try DatabasePool(path: path, configuration: config)
        try dbPool.write { try $0.execute(sql: "CREATE TABLE t(a INT)") }
        return (dbPool, path)
    }

    /// Another connection to the file, holding the write lock until `commit()`.
    private final class LockHolder {
        private var connection: OpaquePointer?
        /// `writes`: whether the transaction inserts 100 (else it commits nothing).
        init(path: String, writes: Bool = true) throws {
            let sql = writes ? "BEGIN IMMEDIATE; INSERT INTO t VALUES (100)" : "BEGIN IMMEDIATE"
            guard sqlite3_open(path, &connection) == SQLITE_OK,
                sqlite3_exec(connection, sql, nil, nil, nil) == SQLITE_OK
            else { throw DatabaseError(message: "could not take the write lock") }
        }
        func commit() { sqlite3_exec(connection, "COMMIT", nil, nil, nil) }
        deinit { sqlite3_close(connection) }
    }

    func testTheReadersOfAPoolBeginTheirTransactionsCounted() throws {
        let (dbPool, _) = try makePool()
        _ = try dbPool.read { _ in }  // opens the reader (its setup reads too)
        func countedSteps(_ read: (Database) throws -> Void) throws -> Int {
            let before = dbPool.readStarts.current
            try dbPool.read(read)
            let after = dbPool.readStarts.current
            XCTAssertEqual(after.running, 0)
            return after.ended &- before.ended
        }
        let one = try countedSteps { db in _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
        XCTAssertGreaterThan(one, 0)
        // The statements that run once the transaction has begun are not counted.
        let three = try countedSteps { db in
            for _ in 0..<3 { _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
        }
        XCTAssertEqual(three, one)
        // Statements outside of a transaction each begin one.
        let unsafe = {
            try dbPool.unsafeRead { db in
                for _ in 0..<3 { _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
            }
        }
        let before = dbPool.readStarts.current
        try unsafe()
        XCTAssertEqual(dbPool.readStarts.current.ended &- before.ended, 3)
        // The writer does not count: the writer waiting for itself would wait in vain.
        let beforeWrite = dbPool.readStarts.current
        try dbPool.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
        XCTAssertEqual(dbPool.readStarts.current, beforeWrite)
    }

    /// A reader in the middle of beginning its read transaction, as when it holds the
    /// write lock for a moment, simulated: counted until `end()` is called.
    private func beginReader(_ dbPool: DatabasePool) -> (end: () -> Void, Void) {
        let readerMayEnd = DispatchSemaphore(value: 0)
        let readerIsBeginning = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            dbPool.readStarts.counting {
                readerIsBeginning.signal()
                readerMayEnd.wait()
            }
        }
        readerIsBeginning.wait()
        return ({ readerMayEnd.signal() }, ())
    }

    /// A write running on another thread.
    private final class BackgroundWrite<T: Sendable>: Sendable {
        private let ended = DispatchSemaphore(value: 0)
        private let result = LockedState<Result<T, any Error>?>(nil)

        init(_ dbPool: DatabasePool, _ updates: @escaping @Sendable (Database) throws -> T) {
            DispatchQueue.global().async { [self] in
                let result = Result { try dbPool.write(updates) }
                self.result.withLock { $0 = result }
                ended.signal()
            }
        }

        /// Whether the write ended within `seconds`.
        func ends(within seconds: Double) -> Bool {
            ended.wait(timeout: .now() + seconds) == .success
        }

        func get() throws -> T { try result.withLock { $0 }!.get() }
    }

    /// Waits until the writer tried again for its readers beyond its first try (which
    /// it makes whoever holds the lock), then checks that its write is still waiting.
    private func waitUntilTheWriterWaits<T>(
        _ dbPool: DatabasePool, _ write: BackgroundWrite<T>,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        try waitUntil("the writer waits for its readers") { dbPool.readStarts.writerWaitCount > 1 }
        XCTAssertFalse(write.ends(within: 0), "the write ended", file: file, line: line)
    }

    func testTheWriterWaitsForAReaderThatBeginsATransaction() throws {
        let (dbPool, path) = try makePool()
        let holder = try LockHolder(path: path)  // the lock, given back only later
        let reader = beginReader(dbPool)
        let write = BackgroundWrite(dbPool) { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
        // The writer keeps trying: its write has not failed.
        try waitUntilTheWriterWaits(dbPool, write)
        holder.commit()
        reader.end()
        XCTAssertTrue(write.ends(within: 20))
        XCTAssertNoThrow(try write.get())
        XCTAssertEqual(try dbPool.read { try Int.fetchAll($0, sql: "SELECT a FROM t ORDER BY a") }, [1, 100])
    }

    func testAWriteAfterAReadOfItsTransactionAlsoWaitsForTheReaders() throws {
        // SQLite calls no busy handler when a transaction that read wants to write: the
        // writer steps its statement again.
        let (dbPool, path) = try makePool()
        let holder = try LockHolder(path: path, writes: false)
        let reader = beginReader(dbPool)
        let write = BackgroundWrite(dbPool) { db in
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            return count
        }
        try waitUntilTheWriterWaits(dbPool, write)
        holder.commit()  // commits nothing: the write's snapshot is still the last one
        reader.end()
        XCTAssertTrue(write.ends(within: 20))
        XCTAssertEqual(try write.get(), 0)
        XCTAssertEqual(try dbPool.read { try Int.fetchAll($0, sql: "SELECT a FROM t") }, [1])
    }

    func testAWriteAfterAReadFailsWhenAnotherConnectionCommittedMeanwhile() throws {
        let (dbPool, path) = try makePool()
        let holder = try LockHolder(path: path)
        let reader = beginReader(dbPool)
        let write = BackgroundWrite(dbPool) { db in
            _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")
            try db.execute(sql: "INSERT INTO t VALUES (1)")
        }
        try waitUntilTheWriterWaits(dbPool, write)
        holder.commit()  // the write's snapshot is stale now: it must fail
        reader.end()
        XCTAssertTrue(write.ends(within: 20))
        assertDatabaseError(.SQLITE_BUSY_SNAPSHOT) { try write.get() }
        XCTAssertEqual(try dbPool.read { try Int.fetchAll($0, sql: "SELECT a FROM t") }, [100])
    }

    func testTheWriterStillFailsAtOnceWhenAnotherConnectionHoldsTheLock() throws {
        let (dbPool, path) = try makePool()
        let holder = try LockHolder(path: path)
        let error = assertDatabaseError(.SQLITE_BUSY) {
            try dbPool.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
        }
        XCTAssertEqual(error?.sql, "INSERT INTO t VALUES (1)")
        // One more try, and no wait: no reader began a transaction.
        XCTAssertEqual(dbPool.readStarts.writerWaitCount, 1)
        holder.commit()
        XCTAssertEqual(try dbPool.read { try Int.fetchAll($0, sql: "SELECT a FROM t") }, [100])
    }

    func testTheWriterGivesUpOnAReaderThatNeverEnds() throws {
        let (dbPool, path) = try makePool()
        let holder = try LockHolder(path: path)
        let reader = beginReader(dbPool)
        defer { reader.end() }
        // After OwnReadersBusyRule.maximumWait, the holder's lock is the holder's.
        assertDatabaseError(.SQLITE_BUSY) {
            try dbPool.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
        }
        holder.commit()
    }

    func testAPoolWithATimeoutUnderASecondAlsoWaitsForItsReaders() throws {
        let path = try makeTemporaryDatabasePath(self)
        var configuration = Configuration()
        configuration.busyMode = .timeout(0.01)
        let dbPool = try DatabasePool(path: path, configuration: configuration)
        try dbPool.write { try $0.execute(sql: "CREATE TABLE t(a INT)") }
        let holder = try LockHolder(path: path)
        let reader = beginReader(dbPool)
        let write = BackgroundWrite(dbPool) { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
        // Longer than the 10 ms timeout.
        try waitUntilTheWriterWaits(dbPool, write)
        XCTAssertFalse(write.ends(within: 0.05))
        holder.commit()
        reader.end()
        XCTAssertTrue(write.ends(within: 20))
        XCTAssertNoThrow(try write.get())
        // Without readers beginning transactions, the timeout applies.
        let secondHolder = try LockHolder(path: path)
        assertDatabaseError(.SQLITE_BUSY) {
            try dbPool.write { try $0.execute(sql: "INSERT INTO t VALUES (2)") }
        }
        secondHolder.commit()
    }

    func testAPoolWithALongTimeoutWaitsForItsReadersAfterARead() throws {
        // SQLite's own timeout handler would not serve a transaction that read first.
        let path = try makeTemporaryDatabasePath(self)
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        let dbPool = try DatabasePool(path: path, configuration: configuration)
        try dbPool.write { try $0.execute(sql: "CREATE TABLE t(a INT)") }
        let holder = try LockHolder(path: path, writes: false)
        let reader = beginReader(dbPool)
        let write = BackgroundWrite(dbPool) { db in
            _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")
            try db.execute(sql: "INSERT INTO t VALUES (1)")
        }
        try waitUntilTheWriterWaits(dbPool, write)
        holder.commit()
        reader.end()
        XCTAssertTrue(write.ends(within: 20))
        XCTAssertNoThrow(try write.get())
    }

    func testTheBusyCallbackCountsItsOwnTries() throws {
        let path = try makeTemporaryDatabasePath(self)
        let tries = LockedState<[Int]>([])
        var configuration = Configuration()
        configuration.busyMode = .callback { count in
            tries.withLock { $0.append(count) }
            return count < 2
        }
        let dbPool = try DatabasePool(path: path, configuration: configuration)
        try dbPool.write { try $0.execute(sql: "CREATE TABLE t(a INT)") }
        let holder = try LockHolder(path: path)
        assertDatabaseError(.SQLITE_BUSY) {
            try dbPool.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
        }
        holder.commit()
        // The writer's first try for its readers is not one of the callback's.
        XCTAssertEqual(tries.withLock { $0 }, [0, 1, 2])
        XCTAssertEqual(dbPool.readStarts.writerWaitCount, 1)
    }

    func testAReaderThatReadsTheSchemaAgainWhilePreparingIsCounted() throws {
        let (dbPool, _) = try makePool()
        _ = try dbPool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") }
        // The reader's copy of the schema does not know the new table: preparing a
        // statement of it reads the schema, in a read transaction of its own.
        try dbPool.write { try $0.execute(sql: "CREATE TABLE u(b INT)") }
        let before = dbPool.readStarts.current
        try dbPool.unsafeRead { db in _ = try db.makeStatement(sql: "SELECT b FROM u") }
        XCTAssertGreaterThan(dbPool.readStarts.current.ended &- before.ended, 0)
    }

    /// The real race: readers beginning transactions while the writer commits, more
    /// threads than cores. Without the writer's wait, plain C programs of this shape fail
    /// some writes of every few thousand.
    func testReadersBeginningTransactionsNeverFailTheWriter() throws {
        let (dbPool, _) = try makePool()
        let stop = LockedState(false)
        let group = DispatchGroup()
        let readerFailures = LockedState<[String]>([])
        for _ in 0..<8 {
            DispatchQueue.global().async(group: group) {
                while !stop.withLock({ $0 }) {
                    do {
                        _ = try dbPool.read { try Int.fetchOne($0, sql: "SELECT 1") }
                    } catch {
                        readerFailures.withLock { $0.append("\(error)") }
                    }
                }
            }
        }
        defer {
            stop.withLock { $0 = true }
            group.wait()
        }
        let start = DispatchTime.now().uptimeNanoseconds
        var transactions = 0
        // Bounded by count and by time (sanitizers are slow).
        while transactions < 20_000 && DispatchTime.now().uptimeNanoseconds - start < 8_000_000_000 {
            try dbPool.write { db in
                for i in 0..<5 { try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [i]) }
            }
            transactions += 1
        }
        stop.withLock { $0 = true }
        group.wait()
        XCTAssertEqual(readerFailures.withLock { $0 }, [])
        XCTAssertEqual(try dbPool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") }, transactions * 5)
    }
}
