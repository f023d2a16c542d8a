import Dispatch
import XCTest

@testable import Ripple

final class DatabaseQueueTests: XCTestCase {
    func testAccessesRethrowAsGRDBs() throws {
        // Compiles without `try`: these accesses rethrow the errors of their closure only,
        // as GRDB 7's do (`read` and `write` throw).
        let dbQueue = try DatabaseQueue()
        let dbPool = try DatabasePool(path: makeTemporaryDatabasePath(self))
        XCTAssertEqual(dbQueue.inDatabase { _ in 1 }, 1)
        XCTAssertEqual(dbQueue.writeWithoutTransaction { _ in 2 }, 2)
        XCTAssertEqual(dbQueue.unsafeRead { _ in 3 }, 3)
        XCTAssertEqual(dbPool.writeWithoutTransaction { _ in 4 }, 4)
        XCTAssertEqual(dbQueue.unsafeReentrantWrite { _ in 5 }, 5)
        struct Failure: Error {}
        XCTAssertThrowsError(try dbQueue.writeWithoutTransaction { _ in throw Failure() }) { XCTAssertTrue($0 is Failure) }
    }

    func testAsyncReadAndWrite() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1), (2)")
        }
        let sum = try await dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT SUM(a) FROM t") }
        XCTAssertEqual(sum, 3)
        let inserted = try await dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO t VALUES (3)")
            return db.lastInsertedRowID
        }
        XCTAssertEqual(inserted, 3)
    }

    func testAsyncWriteErrorRollsBack() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { try $0.execute(sql: "CREATE TABLE t(a NOT NULL)") }
        do {
            try await dbQueue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                try db.execute(sql: "INSERT INTO t VALUES (NULL)")
            }
            XCTFail("expected an error")
        } catch let error as DatabaseError {
            XCTAssertEqual(error.extendedResultCode, .SQLITE_CONSTRAINT_NOTNULL)
        }
        let count = try await dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") }
        XCTAssertEqual(count, 0)
    }

    func testAsyncReadRefusesWrites() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { try $0.execute(sql: "CREATE TABLE t(a)") }
        do {
            try await dbQueue.read { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
            XCTFail("expected an error")
        } catch let error as DatabaseError {
            XCTAssertEqual(error.resultCode, .SQLITE_READONLY)
        }
    }

    func testAccessesAreSerialized() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE counter(value INT); INSERT INTO counter VALUES (0)") }
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<50 {
                try! dbQueue.write { db in
                    let value = try Int.fetchOne(db, sql: "SELECT value FROM counter")!
                    try db.execute(sql: "UPDATE counter SET value = ?", arguments: [value + 1])
                }
            }
        }
        XCTAssertEqual(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT value FROM counter") }, 400)
    }

    func testAsyncWriteCompletion() throws {
        let dbQueue = try DatabaseQueue()
        let done = expectation(description: "completion")
        dbQueue.asyncWrite(
            { db in
                try db.execute(sql: "CREATE TABLE t(a)")
                return 42
            },
            completion: { db, result in
                XCTAssertEqual(try? result.get(), 42)
                XCTAssertFalse(db.isInsideTransaction)
                done.fulfill()
            })
        wait(for: [done], timeout: 5)
    }

    func testGenericOverDatabaseWriter() throws {
        func setUp(_ writer: some DatabaseWriter) throws -> Int {
            try writer.write { db in
                try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)")
            }
            return try writer.read { try Int.fetchOne($0, sql: "SELECT a FROM t")! }
        }
        XCTAssertEqual(try setUp(DatabaseQueue()), 1)
        XCTAssertEqual(try setUp(DatabasePool(path: makeTemporaryDatabasePath(self))), 1)
    }

    func testAsyncConcurrentReadOnQueueRunsRightAway() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)") }
        let count = SQLRecorder()
        dbQueue.writeWithoutTransaction { _ in
            dbQueue.asyncConcurrentRead { result in
                let value = try! Int.fetchOne(result.get(), sql: "SELECT COUNT(*) FROM t")!
                count.record(String(value))
            }
            XCTAssertEqual(count.statements, ["1"])
        }
    }

    func testReentranceIsFatal() throws {
        try assertFatalError(inScenario: "RippleTests.AccessFatalErrorScenarios/testReentrantQueueAccess", "Database methods are not reentrant")
    }

    func testPoolReentranceIsFatal() throws {
        try assertFatalError(
            inScenario: "RippleTests.AccessFatalErrorScenarios/testReentrantPoolWrite", "Database methods are not reentrant", "would wait for itself")
    }

    func testAWriteThroughAnotherDatabaseBackToTheFirstIsFatal() throws {
        try assertFatalError(
            inScenario: "RippleTests.AccessFatalErrorScenarios/testWriteThroughAnotherDatabase", "Database methods are not reentrant")
    }

    func testAPoolWritesFromInsideARead() throws {
        // Readers never wait for the writer: this access cannot deadlock.
        let dbPool = try DatabasePool(path: makeTemporaryDatabasePath(self))
        try dbPool.write { try $0.execute(sql: "CREATE TABLE t(a)") }
        let count = try dbPool.read { db in
            try dbPool.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
            // The read's snapshot does not see the write.
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")
        }
        XCTAssertEqual(count, 0)
        XCTAssertEqual(try dbPool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") }, 1)
    }

    func testAccessesToOtherDatabasesNest() throws {
        let first = try DatabaseQueue()
        let second = try DatabaseQueue()
        let value = try first.write { _ in try second.read { try Int.fetchOne($0, sql: "SELECT 42") } }
        XCTAssertEqual(value, 42)
    }
}
