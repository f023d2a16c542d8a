import Ripple
import XCTest

/// A transaction that ends inside the closure of a transaction method (SQLite rolled it
/// back after an error, or SQL ended it): the closure's later statements and the commit
/// throw `SQLITE_ABORT`, as in GRDB, instead of running outside of any transaction.
final class AbortedTransactionTests: XCTestCase {
    private func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") }
        return dbQueue
    }

    func testAConflictThatRollsBackAbortsTheRestOfTheBlock() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { try $0.execute(sql: "INSERT INTO t (id) VALUES (1)") }
        XCTAssertThrowsError(
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO t (id) VALUES (2)")
                // The conflict rolls the whole transaction back...
                assertDatabaseError(.SQLITE_CONSTRAINT) { try db.execute(sql: "INSERT OR ROLLBACK INTO t (id) VALUES (1)") }
                // ... so that the next statement would run outside of it.
                let error = assertDatabaseError(.SQLITE_ABORT) { try db.execute(sql: "INSERT INTO t (id) VALUES (3)") }
                XCTAssertEqual(error?.message, "Transaction was aborted")
                XCTAssertEqual(error?.sql, "INSERT INTO t (id) VALUES (3)")
            }
        ) { error in
            // The commit too.
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .SQLITE_ABORT)
        }
        XCTAssertEqual(try dbQueue.read { try Int.fetchAll($0, sql: "SELECT id FROM t") }, [1])
        // The next transaction is not affected.
        try dbQueue.write { try $0.execute(sql: "INSERT INTO t (id) VALUES (4)") }
        XCTAssertEqual(try dbQueue.read { try Int.fetchAll($0, sql: "SELECT id FROM t ORDER BY id") }, [1, 4])
    }

    func testAnExplicitRollbackInsideTheBlockAbortsIt() throws {
        let dbQueue = try makeQueue()
        try dbQueue.writeWithoutTransaction { db in
            XCTAssertThrowsError(
                try db.inTransaction {
                    try db.execute(sql: "INSERT INTO t (id) VALUES (1)")
                    try db.execute(sql: "ROLLBACK")
                    assertDatabaseError(.SQLITE_ABORT) { try db.execute(sql: "INSERT INTO t (id) VALUES (2)") }
                    return .commit
                }
            ) { error in
                XCTAssertEqual((error as? DatabaseError)?.resultCode, .SQLITE_ABORT)
            }
            // Outside of the block, statements run as usual.
            try db.execute(sql: "INSERT INTO t (id) VALUES (3)")
            // A block that returns .rollback after its transaction ended is fine.
            try db.inTransaction {
                try db.execute(sql: "ROLLBACK")
                return .rollback
            }
        }
        XCTAssertEqual(try dbQueue.read { try Int.fetchAll($0, sql: "SELECT id FROM t") }, [3])
    }

    func testAnInterruptAbortsTheRestOfTheBlock() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            for id in 1...1000 { try db.execute(sql: "INSERT INTO t (id) VALUES (?)", arguments: [id]) }
        }
        XCTAssertThrowsError(
            try dbQueue.write { db in
                try db.execute(sql: "DELETE FROM t WHERE id = 1")
                db.add(
                    function: DatabaseFunction("interruptNow", argumentCount: 0) { _ in
                        dbQueue.interrupt()
                        return 0
                    })
                assertDatabaseError(.SQLITE_INTERRUPT) { try db.execute(sql: "UPDATE t SET id = id + 10000 WHERE interruptNow() = 0") }
                assertDatabaseError(.SQLITE_ABORT) { try db.execute(sql: "DELETE FROM t") }
            }
        ) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .SQLITE_ABORT)
        }
        XCTAssertEqual(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM t") }, 1000)
    }
}
