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
}
