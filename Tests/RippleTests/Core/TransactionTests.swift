import CSQLite
import XCTest

@testable import Ripple

/// The samples of "Transactions and Savepoints", with the SQL each one runs.
final class TransactionTests: XCTestCase {
    private var recorder = SQLRecorder()

    private func makeDatabase(_ configuration: Configuration = Configuration()) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(
                sql: """
                    CREATE TABLE credit (amount INT NOT NULL);
                    CREATE TABLE debit (amount INT NOT NULL);
                    """)
            db.record(into: recorder)
        }
        return dbQueue
    }

    private func count(_ dbQueue: DatabaseQueue, _ table: String) throws -> Int {
        try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM \(table)")! }
    }

    /// As in GRDB 7: IMMEDIATE for writes, DEFERRED for reads.
    func testWriteWrapsATransaction() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO credit VALUES (1)")
            try db.execute(sql: "INSERT INTO debit VALUES (1)")
        }
        XCTAssertEqual(
            recorder.statements,
            [
                "BEGIN IMMEDIATE TRANSACTION",
                "INSERT INTO credit VALUES (1)",
                "INSERT INTO debit VALUES (1)",
                "COMMIT TRANSACTION",
            ])
    }

    func testReadWrapsATransaction() throws {
        let dbQueue = try makeDatabase()
        let (credits, debits) = try dbQueue.read { db in
            (try Int.fetchAll(db, sql: "SELECT * FROM credit"), try Int.fetchAll(db, sql: "SELECT * FROM debit"))
        }
        XCTAssertEqual(credits, [])
        XCTAssertEqual(debits, [])
        XCTAssertEqual(
            recorder.statements,
            [
                "BEGIN DEFERRED TRANSACTION",
                "SELECT * FROM credit",
                "SELECT * FROM debit",
                "COMMIT TRANSACTION",
            ])
    }

    func testWriteInsideReadFailsWithReadonlyError() throws {
        let dbQueue = try makeDatabase()
        assertDatabaseError(.SQLITE_READONLY) {
            try dbQueue.read { try $0.execute(sql: "INSERT INTO credit VALUES (1)") }
        }
        // The connection is writable again afterwards.
        try dbQueue.write { try $0.execute(sql: "INSERT INTO credit VALUES (1)") }
        XCTAssertEqual(try count(dbQueue, "credit"), 1)
    }

    func testEveryKindOfWriteInsideReadFailsWithReadonlyError() throws {
        let dbQueue = try makeDatabase()
        // Statements prepared before the read, in the cache, or in the read; writes of the
        // main database and of the temporary one, pragmas, a write that returns rows.
        try dbQueue.inDatabase { db in
            let kept = try db.makeStatement(sql: "INSERT INTO credit VALUES (1)")
            _ = try db.cachedStatement(sql: "INSERT INTO debit VALUES (2)")
            try db.inReadOnlyTransaction {
                assertDatabaseError(.SQLITE_READONLY) { try kept.execute() }
                assertDatabaseError(.SQLITE_READONLY) { try db.cachedStatement(sql: "INSERT INTO debit VALUES (2)").execute() }
                assertDatabaseError(.SQLITE_READONLY) { try db.execute(sql: "UPDATE credit SET amount = 3") }
                assertDatabaseError(.SQLITE_READONLY) { try db.execute(sql: "CREATE TEMP TABLE t (x)") }
                assertDatabaseError(.SQLITE_READONLY) { try db.execute(sql: "PRAGMA user_version = 7") }
                assertDatabaseError(.SQLITE_READONLY) { _ = try Row.fetchAll(db, sql: "INSERT INTO credit VALUES (4) RETURNING amount") }
                // Reads go on.
                XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM credit"), 0)
            }
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM credit"), 0)
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM debit"), 0)
            XCTAssertEqual(try Int.fetchOne(db, sql: "PRAGMA user_version"), 0)
            // The connection is writable again afterwards, with the same statements.
            try kept.execute()
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM credit"), 1)
        }
    }

    func testAReadDoesNotMakeSQLiteCompileStatementsAgain() throws {
        // (PRAGMA query_only would: a flag pragma expires every prepared statement, and
        // each read would cost every cached statement a new compilation.)
        let dbQueue = try makeDatabase()
        let sql = "INSERT INTO credit VALUES (?)"
        func reprepareCount() throws -> CInt {
            try dbQueue.write { db in
                let statement = try db.cachedStatement(sql: sql)
                try statement.execute(arguments: [1])
                return sqlite3_stmt_status(statement.sqliteStatement, SQLITE_STMTSTATUS_REPREPARE, 0)
            }
        }
        let reprepares = try reprepareCount()
        for _ in 0..<3 {
            _ = try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM credit") }
            XCTAssertEqual(try reprepareCount(), reprepares)
        }
    }

    func testWriteWithoutTransaction() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO credit VALUES (1)")
            XCTAssertFalse(db.isInsideTransaction)
            try db.execute(sql: "INSERT INTO debit VALUES (1)")
        }
        dbQueue.inDatabase { db in XCTAssertFalse(db.isInsideTransaction) }
        XCTAssertEqual(recorder.statements, ["INSERT INTO credit VALUES (1)", "INSERT INTO debit VALUES (1)"])
    }

    func testWriteWithoutTransactionCanLeaveUnbalancedAccounts() throws {
        let dbQueue = try makeDatabase()
        XCTAssertThrowsError(
            try dbQueue.writeWithoutTransaction { db in
                try db.execute(sql: "INSERT INTO credit VALUES (1)")
                try db.execute(sql: "INSERT INTO debit VALUES (NULL)")  // fails
            })
        XCTAssertEqual(try count(dbQueue, "credit"), 1)
        XCTAssertEqual(try count(dbQueue, "debit"), 0)
    }

    func testUnsafeReadDoesNotOpenATransaction() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.unsafeRead { db in
            XCTAssertFalse(db.isInsideTransaction)
            _ = try Int.fetchAll(db, sql: "SELECT * FROM credit")
        }
        XCTAssertEqual(recorder.statements, ["SELECT * FROM credit"])
    }

    func testInTransactionCommit() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.inTransaction { db in
            try db.execute(sql: "INSERT INTO credit VALUES (1)")
            try db.execute(sql: "INSERT INTO debit VALUES (1)")
            return .commit
        }
        XCTAssertEqual(try count(dbQueue, "credit"), 1)
        XCTAssertEqual(try count(dbQueue, "debit"), 1)
    }

    func testInTransactionRollback() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.inTransaction { db in
            try db.execute(sql: "INSERT INTO credit VALUES (1)")
            return .rollback
        }
        XCTAssertEqual(recorder.statements.last, "ROLLBACK TRANSACTION")
        XCTAssertEqual(try count(dbQueue, "credit"), 0)
    }

    struct SomeError: Error {}

    func testErrorRollsBackAndIsRethrown() throws {
        let dbQueue = try makeDatabase()
        XCTAssertThrowsError(
            try dbQueue.inTransaction { db in
                try db.execute(sql: "INSERT INTO credit VALUES (1)")
                throw SomeError()
            }
        ) { XCTAssertTrue($0 is SomeError) }
        XCTAssertThrowsError(
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO credit VALUES (1)")
                throw SomeError()
            }
        ) { XCTAssertTrue($0 is SomeError) }
        XCTAssertEqual(try count(dbQueue, "credit"), 0)
    }

    func testDatabaseInTransaction() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.writeWithoutTransaction { db in
            try db.inTransaction {
                XCTAssertTrue(db.isInsideTransaction)
                try db.execute(sql: "INSERT INTO credit VALUES (1)")
                try db.execute(sql: "INSERT INTO debit VALUES (1)")
                return .commit
            }
            XCTAssertFalse(db.isInsideTransaction)
        }
        XCTAssertEqual(recorder.statements.first, "BEGIN IMMEDIATE TRANSACTION")
        XCTAssertEqual(recorder.statements.last, "COMMIT TRANSACTION")
    }

    func testWriteInTransaction() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.writeInTransaction { db in
            try db.execute(sql: "INSERT INTO credit VALUES (1)")
            return .commit
        }
        XCTAssertEqual(try count(dbQueue, "credit"), 1)
    }

    func testManualTransactionsAndRawSQL() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.writeWithoutTransaction { db in
            try db.beginTransaction()
            XCTAssertTrue(db.isInsideTransaction)
            try db.execute(sql: "INSERT INTO credit VALUES (1)")
            try db.commit()
            XCTAssertFalse(db.isInsideTransaction)

            try db.execute(sql: "BEGIN TRANSACTION")
            XCTAssertTrue(db.isInsideTransaction)
            try db.execute(sql: "INSERT INTO credit VALUES (2)")
            try db.execute(sql: "ROLLBACK")
            XCTAssertFalse(db.isInsideTransaction)

            try db.execute(sql: "SAVEPOINT foo")
            XCTAssertTrue(db.isInsideTransaction)
            try db.execute(sql: "RELEASE SAVEPOINT foo")
            XCTAssertFalse(db.isInsideTransaction)

            try db.beginTransaction()
            try db.execute(sql: "SAVEPOINT bar")
            try db.execute(sql: "INSERT INTO credit VALUES (3)")
            try db.execute(sql: "ROLLBACK TO SAVEPOINT bar")
            XCTAssertTrue(db.isInsideTransaction)
            try db.rollback()
        }
        XCTAssertEqual(try dbQueue.read { try Int.fetchAll($0, sql: "SELECT amount FROM credit") }, [1])
    }

    func testTransactionLeftOpenIsFatal() throws {
        try assertFatalError(
            inScenario: "RippleTests.TransactionFatalErrorScenarios/testLeaveTransactionOpen",
            "A transaction has been left opened at the end of a database access", "allowsUnsafeTransactions")
    }

    func testAllowsUnsafeTransactions() throws {
        var config = Configuration()
        config.allowsUnsafeTransactions = true
        let dbQueue = try makeDatabase(config)
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN TRANSACTION")
            try db.execute(sql: "INSERT INTO credit VALUES (1)")
        }
        try dbQueue.writeWithoutTransaction { db in
            XCTAssertTrue(db.isInsideTransaction)
            try db.commit()
        }
        XCTAssertEqual(try count(dbQueue, "credit"), 1)
    }

    func testThrownErrorRollsBackATransactionLeftOpen() throws {
        let dbQueue = try makeDatabase()
        XCTAssertThrowsError(
            try dbQueue.writeWithoutTransaction { db in
                try db.execute(sql: "BEGIN TRANSACTION")
                try db.execute(sql: "INSERT INTO credit VALUES (1)")
                throw SomeError()
            })
        XCTAssertEqual(try count(dbQueue, "credit"), 0)
    }

    func testCriticalSectionWithSavepoint() throws {
        let dbQueue = try makeDatabase()
        func myCriticalMethod(_ db: Database) throws {
            try db.inSavepoint {
                XCTAssertTrue(db.isInsideTransaction, "guaranteed inside a transaction")
                try db.execute(sql: "INSERT INTO credit VALUES (1)")
                return .commit
            }
        }
        try dbQueue.writeWithoutTransaction { db in try myCriticalMethod(db) }
        try dbQueue.write { db in try myCriticalMethod(db) }
        XCTAssertEqual(try count(dbQueue, "credit"), 2)
    }

    func testSavepointRollbackKeepsTheTransaction() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO credit VALUES (1)")
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO credit VALUES (2)")
                return .rollback
            }
            XCTAssertTrue(db.isInsideTransaction)
            XCTAssertThrowsError(
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO credit VALUES (3)")
                    throw SomeError()
                })
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO credit VALUES (4)")
                return .commit
            }
        }
        XCTAssertEqual(try dbQueue.read { try Int.fetchAll($0, sql: "SELECT amount FROM credit ORDER BY 1") }, [1, 4])
        XCTAssertEqual(
            recorder.statements,
            [
                "BEGIN IMMEDIATE TRANSACTION",
                "INSERT INTO credit VALUES (1)",
                "SAVEPOINT ripple",
                "INSERT INTO credit VALUES (2)",
                "ROLLBACK TRANSACTION TO SAVEPOINT ripple",
                "RELEASE SAVEPOINT ripple",
                "SAVEPOINT ripple",
                "INSERT INTO credit VALUES (3)",
                "ROLLBACK TRANSACTION TO SAVEPOINT ripple",
                "RELEASE SAVEPOINT ripple",
                "SAVEPOINT ripple",
                "INSERT INTO credit VALUES (4)",
                "RELEASE SAVEPOINT ripple",
                "COMMIT TRANSACTION",
                "BEGIN DEFERRED TRANSACTION", "SELECT amount FROM credit ORDER BY 1",
                "COMMIT TRANSACTION",
            ])
    }

    func testNestedSavepointsOpenATransactionWrittenAtTheOutermostCommit() throws {
        let path = try makeTemporaryDatabasePath(self)
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE credit (amount INT)") }
        let other = try DatabaseQueue(path: path)
        try dbQueue.writeWithoutTransaction { db in
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO credit VALUES (1)")
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO credit VALUES (2)")
                    return .commit
                }
                // The inner savepoint is released, but nothing is on disk yet.
                XCTAssertEqual(try other.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM credit") }, 0)
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO credit VALUES (3)")
                    return .rollback
                }
                return .commit  // Writes changes to disk
            }
        }
        XCTAssertEqual(try other.read { try Int.fetchAll($0, sql: "SELECT amount FROM credit ORDER BY 1") }, [1, 2])
    }

    func testOutermostSavepointRollback() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.writeWithoutTransaction { db in
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO credit VALUES (1)")
                return .rollback
            }
        }
        XCTAssertEqual(try count(dbQueue, "credit"), 0)
        XCTAssertEqual(
            recorder.statements.prefix(3),
            [
                "BEGIN IMMEDIATE TRANSACTION", "INSERT INTO credit VALUES (1)", "ROLLBACK TRANSACTION",
            ])
    }

    func testTransactionKinds() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.inTransaction(.exclusive) { _ in .commit }
        try dbQueue.inTransaction(.immediate) { _ in .commit }
        try dbQueue.inTransaction(.deferred) { _ in .commit }
        XCTAssertEqual(
            recorder.statements,
            [
                "BEGIN EXCLUSIVE TRANSACTION", "COMMIT TRANSACTION",
                "BEGIN IMMEDIATE TRANSACTION", "COMMIT TRANSACTION",
                "BEGIN DEFERRED TRANSACTION", "COMMIT TRANSACTION",
            ])
    }

    func testDefaultTransactionKind() throws {
        var config = Configuration()
        config.defaultTransactionKind = .immediate
        let dbQueue = try makeDatabase(config)
        try dbQueue.write { _ in }
        try dbQueue.inTransaction { _ in .commit }
        try dbQueue.writeWithoutTransaction { db in try db.inSavepoint { .commit } }
        XCTAssertEqual(
            recorder.statements,
            [
                "BEGIN IMMEDIATE TRANSACTION", "COMMIT TRANSACTION",
                "BEGIN IMMEDIATE TRANSACTION", "COMMIT TRANSACTION",
                "BEGIN IMMEDIATE TRANSACTION", "COMMIT TRANSACTION",
            ])
    }

    func testFailedCommitRollsBackAndThrows() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(
                sql: """
                    CREATE TABLE parent(id INTEGER PRIMARY KEY);
                    CREATE TABLE child(parentId INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED);
                    """)
        }
        assertDatabaseError(.SQLITE_CONSTRAINT_FOREIGNKEY) {
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO child VALUES (1)") }
        }
        dbQueue.writeWithoutTransaction { db in XCTAssertFalse(db.isInsideTransaction) }
        XCTAssertEqual(try count(dbQueue, "child"), 0)
    }
}
