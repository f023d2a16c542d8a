import Foundation
import XCTest

@testable import Ripple

/// Suspension: a suspended database holds no lock on its file and takes none, so that
/// another process (an app extension) can write; reads in WAL mode go on.
final class SuspensionTests: XCTestCase {
    private func makeQueue(journalMode: String, configuration: Configuration = Configuration()) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue(path: makeTemporaryDatabasePath(self), configuration: configuration)
        let mode = try dbQueue.writeWithoutTransaction { db in try String.fetchOne(db, sql: "PRAGMA journal_mode = \(journalMode)") }
        XCTAssertEqual(mode, journalMode)
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        return dbQueue
    }

    private func assertSuspended<T>(_ sql: String, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> T) {
        let error = assertDatabaseError(.SQLITE_ABORT, file: file, line: line, body)
        XCTAssertEqual(error?.message, "Database is suspended", file: file, line: line)
        XCTAssertEqual(error?.sql, sql, file: file, line: line)
    }

    func testSuspendedDatabaseRefusesWritesAndTransactionsThatLock() throws {
        for mode in ["delete", "wal"] {
            let dbQueue = try makeQueue(journalMode: mode)
            dbQueue.suspend()
            assertSuspended("INSERT INTO t VALUES (1)") { try dbQueue.writeWithoutTransaction { try $0.execute(sql: "INSERT INTO t VALUES (1)") } }
            assertSuspended("BEGIN IMMEDIATE TRANSACTION") { try dbQueue.write { _ in } }
            assertSuspended("BEGIN EXCLUSIVE TRANSACTION") { try dbQueue.inTransaction(.exclusive) { _ in .commit } }
            dbQueue.resume()
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
            XCTAssertEqual(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }, 1, mode)
        }
    }

    func testReadsGoOnInWALModeOnly() throws {
        let walQueue = try makeQueue(journalMode: "wal")
        walQueue.suspend()
        XCTAssertEqual(try walQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }, 0)

        let deleteQueue = try makeQueue(journalMode: "delete")
        deleteQueue.suspend()
        assertSuspended("BEGIN DEFERRED TRANSACTION") { try deleteQueue.read { _ in } }
        assertSuspended("SELECT COUNT(*) FROM t") {
            try deleteQueue.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
        }
    }

    /// The point of it all: the suspended connection's lock is released, and another
    /// connection writes without waiting.
    func testTheTransactionInProgressIsRolledBackAndItsLockReleased() throws {
        let path = try makeTemporaryDatabasePath(self)
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        let other = try DatabaseQueue(path: path)
        let rollbacks = RollbackCounter()
        dbQueue.add(transactionObserver: rollbacks)
        let error = assertDatabaseError(.SQLITE_ABORT) {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                // The write lock is held: the other connection can not write.
                assertDatabaseError(.SQLITE_BUSY) { try other.write { try $0.execute(sql: "INSERT INTO t VALUES (2)") } }
                dbQueue.suspend()
                assertSuspended("INSERT INTO t VALUES (3)") { try db.execute(sql: "INSERT INTO t VALUES (3)") }
                XCTAssertFalse(db.isInsideTransaction)
                // Released: the other connection writes.
                try other.write { try $0.execute(sql: "INSERT INTO t VALUES (2)") }
            }
        }
        XCTAssertEqual(error?.message, "Transaction was aborted")
        XCTAssertEqual(rollbacks.count, 1)
        dbQueue.resume()
        XCTAssertEqual(try dbQueue.read { db in try Int.fetchAll(db, sql: "SELECT a FROM t") }, [2])
    }

    func testStatementsThatEndTransactionsAreAllowed() throws {
        for mode in ["delete", "wal"] {
            let dbQueue = try makeQueue(journalMode: mode)
            try dbQueue.writeWithoutTransaction { db in
                try db.execute(sql: "BEGIN; INSERT INTO t VALUES (1)")
                dbQueue.suspend()
                try db.execute(sql: "COMMIT")
                dbQueue.resume()
                try db.execute(sql: "BEGIN; INSERT INTO t VALUES (2); SAVEPOINT s; INSERT INTO t VALUES (3)")
                dbQueue.suspend()
                try db.execute(sql: "ROLLBACK TO SAVEPOINT s")
                try db.execute(sql: "RELEASE SAVEPOINT s")
                try db.execute(sql: "ROLLBACK")
                if mode == "delete" {
                    // It would take a lock at its first read.
                    assertSuspended("SAVEPOINT u") { try db.execute(sql: "SAVEPOINT u") }
                }
                try db.execute(sql: "PRAGMA query_only = 1")
                try db.execute(sql: "PRAGMA query_only = 0")
                dbQueue.resume()
            }
            XCTAssertEqual(try dbQueue.read { db in try Int.fetchAll(db, sql: "SELECT a FROM t") }, [1], mode)
        }
    }

    func testTheRunningStatementIsInterrupted() throws {
        let dbQueue = try makeQueue(journalMode: "wal")
        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        dbQueue.writeWithoutTransaction { db in
            db.add(
                function: DatabaseFunction("wait", argumentCount: 0, pure: false) { _ in
                    started.signal()
                    proceed.wait()
                    return nil
                })
        }
        let suspender = Thread {
            started.wait()
            dbQueue.suspend()
            proceed.signal()
        }
        suspender.start()
        assertDatabaseError(.SQLITE_INTERRUPT) {
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO t SELECT wait()") }
        }
        XCTAssertEqual(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }, 0)
    }

    func testPoolWriterIsSuspendedAndReadersGoOn() throws {
        let dbPool = try DatabasePool(path: makeTemporaryDatabasePath(self))
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        dbPool.suspend()
        assertSuspended("INSERT INTO t VALUES (1)") { try dbPool.writeWithoutTransaction { try $0.execute(sql: "INSERT INTO t VALUES (1)") } }
        XCTAssertEqual(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }, 0)
        dbPool.resume()
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
    }

    func testNotificationsSuspendAndResumeOnlyTheDatabasesThatObserveThem() throws {
        var configuration = Configuration()
        configuration.observesSuspensionNotifications = true
        let observing = try makeQueue(journalMode: "delete", configuration: configuration)
        let other = try makeQueue(journalMode: "delete")
        NotificationCenter.default.post(name: Database.suspendNotification, object: nil)
        assertSuspended("INSERT INTO t VALUES (1)") { try observing.writeWithoutTransaction { try $0.execute(sql: "INSERT INTO t VALUES (1)") } }
        try other.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        NotificationCenter.default.post(name: Database.resumeNotification, object: nil)
        try observing.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
    }

    /// The journal mode read during a suspension is Ripple's own statement.
    func testTheTraceShowsOnlyTheApplicationsStatements() throws {
        let dbQueue = try makeQueue(journalMode: "wal")
        let recorder = SQLRecorder()
        dbQueue.suspend()
        _ = try dbQueue.read { db in
            db.record(into: recorder)
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")
        }
        XCTAssertEqual(recorder.statements.first, "SELECT COUNT(*) FROM t")
        XCTAssertFalse(recorder.statements.contains { $0.contains("journal_mode") }, "\(recorder.statements)")
    }

    /// The journal mode learned in one suspension is not trusted in the next.
    func testEachSuspensionReadsTheJournalModeAgain() throws {
        let dbQueue = try makeQueue(journalMode: "wal")
        dbQueue.suspend()
        XCTAssertEqual(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }, 0)
        dbQueue.resume()
        try dbQueue.writeWithoutTransaction { db in _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = delete") }
        dbQueue.suspend()
        assertSuspended("SELECT COUNT(*) FROM t") {
            try dbQueue.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
        }
    }
}

private final class RollbackCounter: TransactionObserver, @unchecked Sendable {  // only used on the queue's thread
    var count = 0
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: Database) {}
    func databaseDidRollback(_ db: Database) { count += 1 }
}
