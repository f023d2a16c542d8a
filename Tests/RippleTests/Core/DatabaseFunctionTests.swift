import Foundation
import XCTest

@testable import Ripple

final class DatabaseFunctionTests: XCTestCase {
    struct Failure: Error, CustomStringConvertible { var description: String { "succ needs an integer" } }

    let succ = DatabaseFunction("succ", argumentCount: 1, pure: true) { values in
        guard let int = Int.fromDatabaseValue(values[0]) else { throw Failure() }
        return int + 1
    }

    func testFunctionsInSQLAndInTheQueryInterface() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            db.add(function: succ)
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT succ(1)"), 2)
            try db.execute(sql: "CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1), (41)")
            XCTAssertEqual(try Int.fetchAll(db, Table<Row>("t").select(succ(Column("a"))).order(Column("a"))), [2, 42])
            // A pure function may be indexed.
            try db.execute(sql: "CREATE INDEX bySucc ON t(succ(a))")
            let error = assertDatabaseError(.SQLITE_ERROR) { try Int.fetchOne(db, sql: "SELECT succ('x')") }
            XCTAssertTrue(error?.message?.contains("succ needs an integer") ?? false, "\(String(describing: error))")
        }
    }

    func testEveryKindOfResultAndAnyNumberOfArguments() throws {
        let echo = DatabaseFunction("echo") { values in
            switch values.count {
            case 0: return nil
            case 1: return values[0]
            default: return values.count
            }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            db.add(function: echo)
            let row = try Row.fetchOne(
                db,
                sql:
                    "SELECT echo() AS n, echo('a' || char(0) || 'b') AS t, echo('') AS e, echo(x'00ff') AS b, echo(x'') AS eb, echo(1.5) AS d, echo(1, 2, 3) AS c"
            )!
            XCTAssertTrue(row["n"] as DatabaseValue == .null)
            XCTAssertEqual(row["t"] as String, "a\u{0}b")
            XCTAssertEqual(row["e"] as String, "")
            XCTAssertEqual(row["b"] as Data, Data([0, 255]))
            XCTAssertEqual(row["eb"] as Data, Data())
            XCTAssertEqual(row["d"] as Double, 1.5)
            XCTAssertEqual(row["c"] as Int, 3)
        }
    }

    func testThrownDatabaseErrorsKeepTheirCodeAndMessage() throws {
        let fail = DatabaseFunction("fail", argumentCount: 2) { values in
            throw DatabaseError(resultCode: ResultCode(rawValue: Int32.fromDatabaseValue(values[0])!), message: String.fromDatabaseValue(values[1]))
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            db.add(function: fail)
            var error = assertDatabaseError(.SQLITE_CONSTRAINT_CHECK) {
                try db.execute(sql: "SELECT fail(?, 'custom message')", arguments: [ResultCode.SQLITE_CONSTRAINT_CHECK.rawValue])
            }
            XCTAssertEqual(error?.extendedResultCode, .SQLITE_CONSTRAINT_CHECK)
            XCTAssertEqual(error?.message, "custom message")
            // Without a message, SQLite's message for the code, as in GRDB.
            error = assertDatabaseError(ResultCode(rawValue: 123)) { try db.execute(sql: "SELECT fail(123, NULL)") }
            XCTAssertEqual(error?.message, "unknown error")
            error = assertDatabaseError(.SQLITE_FULL) { try db.execute(sql: "SELECT fail(13, NULL)") }
            XCTAssertEqual(error?.message, "database or disk is full")
        }
    }

    func testRemovingAndReplacingFunctions() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            db.add(function: succ)
            let argumentCount = 1  // an Int, as GRDB takes it
            db.add(function: DatabaseFunction("succ", argumentCount: argumentCount) { _ in 0 })
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT succ(1)"), 0)
            db.remove(function: succ)
            assertDatabaseError(.SQLITE_ERROR) { try Int.fetchOne(db, sql: "SELECT succ(1)") }
        }
    }

    func testFunctionsInEveryConnectionOfAPool() throws {
        var configuration = Configuration()
        let succ = self.succ
        configuration.prepareDatabase { db in db.add(function: succ) }
        let dbPool = try DatabasePool(path: makeTemporaryDatabasePath(self), configuration: configuration)
        XCTAssertEqual(try dbPool.read { try Int.fetchOne($0, sql: "SELECT succ(1)") }, 2)
        XCTAssertEqual(try dbPool.write { try Int.fetchOne($0, sql: "SELECT succ(2)") }, 3)
    }
}
