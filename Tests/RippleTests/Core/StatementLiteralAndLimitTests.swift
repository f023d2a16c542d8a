import Ripple
import XCTest

final class StatementLiteralAndLimitTests: XCTestCase {
    func testCachedStatementFromLiteralBindsItsArguments() throws {
        try DatabaseQueue().read { db in
            let statement = try db.cachedStatement(literal: "SELECT \(41) + 1")
            XCTAssertEqual(try Int.fetchOne(statement), 42)
            XCTAssertTrue(try db.cachedStatement(literal: "SELECT \(1) + 1") === statement)
        }
    }

    func testLiteralWithoutArgumentsLeavesParametersToExecution() throws {
        try DatabaseQueue().write { db in
            try db.execute(sql: "CREATE TABLE t(a)")
            try db.cachedStatement(literal: "INSERT INTO t VALUES (?)").execute(arguments: [1])
            try db.makeStatement(literal: "INSERT INTO t VALUES (:a)").execute(arguments: ["a": 2])
            XCTAssertEqual(try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY a"), [1, 2])
        }
    }

    func testMaximumStatementArgumentCountIsSQLiteLimit() throws {
        try DatabaseQueue().read { db in
            let maximum = db.maximumStatementArgumentCount
            XCTAssertGreaterThan(maximum, 0)
            let placeholders = Array(repeating: "?", count: maximum + 1).joined(separator: ",")
            XCTAssertThrowsError(try db.makeStatement(sql: "SELECT \(placeholders)"))
        }
    }

    func testResultCodesOnDatabaseError() {
        XCTAssertEqual(DatabaseError.SQLITE_OK, ResultCode(rawValue: 0))
        XCTAssertEqual(DatabaseError.SQLITE_CONSTRAINT_DATATYPE, ResultCode(rawValue: 3091))
        XCTAssertTrue(ResultCode.SQLITE_CONSTRAINT ~= DatabaseError.SQLITE_CONSTRAINT_PINNED)
    }
}
