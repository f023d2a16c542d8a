import Foundation
import XCTest

@testable import Ripple

final class AfterNextTransactionTests: XCTestCase {
    func testCommitAndRollbackRunOnce() throws {
        let dbQueue = try DatabaseQueue()
        let log = SQLRecorder()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a)")
            db.afterNextTransaction { db in
                log.record("commit \(try! Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!)")
            } onRollback: { _ in
                log.record("rollback")
            }
            try db.execute(sql: "INSERT INTO t VALUES (1)")
        }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        XCTAssertEqual(log.statements, ["commit 1"], "once, and with a usable database")

        log.clear()
        try dbQueue.inTransaction { db in
            db.afterNextTransaction { _ in
                log.record("commit")
            } onRollback: { _ in
                log.record("rollback")
            }
            try db.execute(sql: "INSERT INTO t VALUES (3)")
            return .rollback
        }
        XCTAssertEqual(log.statements, ["rollback"])
    }

    func testOutsideOfATransactionItWaitsForTheNextOne() throws {
        let dbQueue = try DatabaseQueue()
        let log = SQLRecorder()
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE t (a)")
            db.afterNextTransaction { _ in log.record("commit") }
            XCTAssertEqual(log.statements, [])
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            XCTAssertEqual(log.statements, ["commit"])
        }
    }
}
