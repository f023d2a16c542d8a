import XCTest
@testable import Ripple

final class DatabaseErrorTests: XCTestCase {
    func testResultCodesMatchInCatchClauses() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            do {
                try db.execute(sql: "INSERT INTO t (name) VALUES (NULL)")
                XCTFail("expected an error")
            } catch ResultCode.SQLITE_CONSTRAINT_UNIQUE {
                XCTFail("wrong extended code matched")
            } catch ResultCode.SQLITE_CONSTRAINT_NOTNULL {
                // expected
            }
            do {
                try db.execute(sql: "INSERT INTO t (name) VALUES (NULL)")
            } catch DatabaseError.SQLITE_CONSTRAINT {
                // a primary code matches its extended codes
            }
        }
    }

    func testDescription() {
        let error = DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: foo", sql: "SELECT * FROM foo", arguments: nil)
        XCTAssertEqual(error.description, "SQLite error 1: no such table: foo - while executing `SELECT * FROM foo`")
        XCTAssertEqual(ResultCode.SQLITE_CONSTRAINT_UNIQUE.primaryResultCode, .SQLITE_CONSTRAINT)
        XCTAssertEqual(ResultCode.SQLITE_BUSY.description, "5 (database is locked)")
    }
}
