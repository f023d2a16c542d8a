import XCTest

@testable import Ripple

final class DatabaseErrorTests: XCTestCase {
    func testAnErrorWithoutMessageHasSQLitesTextForItsCode() {
        XCTAssertEqual(DatabaseError().message, "SQL logic error")
        XCTAssertEqual(DatabaseError(resultCode: .SQLITE_BUSY).message, "database is locked")
        XCTAssertEqual(DatabaseError(resultCode: .SQLITE_BUSY).description, "SQLite error 5: database is locked")
        XCTAssertEqual(DatabaseError(message: "custom").message, "custom")
    }

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
        // The SQL without the separators around it; `sql` keeps them.
        let multiple = DatabaseError(resultCode: .SQLITE_MISUSE, message: "m", sql: "\n UPDATE t SET a = 1; UPDATE t SET a = 2; \n", arguments: nil)
        XCTAssertEqual(multiple.description, "SQLite error 21: m - while executing `UPDATE t SET a = 1; UPDATE t SET a = 2`")
        XCTAssertEqual(multiple.sql, "\n UPDATE t SET a = 1; UPDATE t SET a = 2; \n")
        XCTAssertEqual(ResultCode.SQLITE_CONSTRAINT_UNIQUE.primaryResultCode, .SQLITE_CONSTRAINT)
        XCTAssertEqual(ResultCode.SQLITE_BUSY.description, "5 (database is locked)")
    }

    func testTheSQLOfAnErrorIsTheFailingStatementOfAMultiStatementString() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            // Fails at execution.
            let executionError = assertDatabaseError(.SQLITE_CONSTRAINT_NOTNULL) {
                try db.execute(
                    sql: """
                        CREATE TABLE t(a NOT NULL);
                        INSERT INTO t VALUES (1);
                        INSERT INTO t VALUES (NULL);
                        INSERT INTO t VALUES (3)
                        """)
            }
            XCTAssertEqual(executionError?.sql, "INSERT INTO t VALUES (NULL)")
            // Fails at compilation.
            let compilationError = assertDatabaseError(.SQLITE_ERROR) {
                try db.execute(sql: "INSERT INTO t VALUES (4); SELECT * FROM missing; INSERT INTO t VALUES (5)")
            }
            XCTAssertEqual(compilationError?.sql, "SELECT * FROM missing")
            // The statements before the failing one ran; those after it did not.
            XCTAssertEqual(try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY a"), [1, 4])
        }
    }
}
