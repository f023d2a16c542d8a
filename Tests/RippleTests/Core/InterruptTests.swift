import Foundation
import XCTest

@testable import Ripple

/// `interrupt()`: statements that run stop with SQLITE_INTERRUPT, writes are rolled back,
/// and the connection goes on working.
final class InterruptTests: XCTestCase {
    /// A query that runs for minutes unless interrupted.
    private let endlessSQL = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 10000000000) SELECT COUNT(*) FROM c"

    /// Runs `access` on another thread, interrupting `reader` until it returns; the error it threw.
    private func interruptedError(_ reader: some DatabaseReader, _ access: @escaping @Sendable () throws -> Void) -> (any Error)? {
        let done = DispatchSemaphore(value: 0)
        let result = ErrorBox()
        Thread.detachNewThread {
            do { try access() } catch { result.error = error }
            done.signal()
        }
        while done.wait(timeout: .now() + .milliseconds(20)) == .timedOut {
            reader.interrupt()
        }
        return result.error
    }

    /// Written by the thread of the access before it signals, read after the wait.
    private final class ErrorBox: @unchecked Sendable {  // the semaphore orders the write before the read
        var error: (any Error)?
    }

    func testAnInterruptedReadThrowsSQLITE_INTERRUPT() throws {
        let dbQueue = try DatabaseQueue()
        let sql = endlessSQL
        let error = interruptedError(dbQueue) { _ = try dbQueue.read { db in try Int.fetchOne(db, sql: sql) } }
        let databaseError = try XCTUnwrap(error as? DatabaseError)
        XCTAssertEqual(databaseError.resultCode, .SQLITE_INTERRUPT)
        XCTAssertEqual(databaseError.sql, sql)
        // The connection goes on.
        XCTAssertEqual(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT 42") }, 42)
    }

    func testAnInterruptedWriteIsRolledBack() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t(a)")
            try db.execute(sql: "INSERT INTO t VALUES (1)")
        }
        let sql = endlessSQL
        let error = interruptedError(dbQueue) {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (2)")
                _ = try Int.fetchOne(db, sql: sql)
            }
        }
        XCTAssertEqual((error as? DatabaseError)?.resultCode, .SQLITE_INTERRUPT)
        XCTAssertEqual(try dbQueue.read { db in try Int.fetchAll(db, sql: "SELECT a FROM t") }, [1])
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (3)") }
        XCTAssertEqual(try dbQueue.read { db in try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY a") }, [1, 3])
    }

    func testAPoolInterruptsItsReaders() throws {
        let dbPool = try DatabasePool(path: makeTemporaryDatabasePath(self))
        let sql = endlessSQL
        let error = interruptedError(dbPool) { _ = try dbPool.read { db in try Int.fetchOne(db, sql: sql) } }
        XCTAssertEqual((error as? DatabaseError)?.resultCode, .SQLITE_INTERRUPT)
        XCTAssertEqual(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT 42") }, 42)
    }

    func testInterruptingAnIdleOrClosedConnectionDoesNothing() throws {
        let dbQueue = try DatabaseQueue()
        dbQueue.interrupt()
        XCTAssertEqual(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT 1") }, 1)
        try dbQueue.close()
        dbQueue.interrupt()
    }

    /// An interrupt may leave the connection interrupted while an FTS5 statement is active
    /// (https://sqlite.org/forum/forumpost/95413eb410): the rollback still happens, and the
    /// connection goes on.
    func testAnInterruptedTransactionOfAnFTS5TableIsRolledBack() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE documents USING FTS5(content)")
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO documents(content) VALUES ('Document')")
                dbQueue.interrupt()
                return .rollback
            }
            XCTAssertFalse(db.isInsideTransaction)
        }
        XCTAssertEqual(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM documents") }, 0)
    }

    func testAnInterruptedCommitOfAnFTS5TableLeavesTheConnectionUsable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE VIRTUAL TABLE documents USING FTS5(content)") }
        var committed = true
        do {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO documents(content) VALUES ('Document')")
                dbQueue.interrupt()
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT {
            // The commit met the interrupt (SQLite 3.40 does): the transaction was rolled back.
            committed = false
        }
        let count = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM documents") }
        XCTAssertEqual(count, committed ? 1 : 0)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO documents(content) VALUES ('Other')") }
    }
}
