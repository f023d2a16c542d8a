import Foundation
import XCTest

@testable import Ripple

/// Statements, cursors and rows that outlive the access, or the connection, that made them:
/// they fail with a clear error, and never touch freed memory (the suite runs under
/// AddressSanitizer in CI).
final class LifetimeTests: XCTestCase {
    func testAStatementThatOutlivesItsQueueThrowsConnectionIsClosed() throws {
        var dbQueue: DatabaseQueue? = try DatabaseQueue()
        let statement = try dbQueue!.read { db in try db.makeStatement(sql: "SELECT 1") }
        dbQueue = nil
        XCTAssertThrowsError(try statement.execute()) { error in
            XCTAssertTrue("\(error)".contains("closed"), "\(error)")
        }
        XCTAssertThrowsError(try Int.fetchOne(statement))
    }

    func testAStatementOfAClosedQueueThrows() throws {
        let dbQueue = try DatabaseQueue()
        let statement = try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a)")
            return try db.makeStatement(sql: "INSERT INTO t VALUES (1)")
        }
        try dbQueue.close()
        XCTAssertThrowsError(try statement.execute())
    }

    func testAStatementOfAPoolReaderThatOutlivesThePoolThrows() throws {
        let path = try makeTemporaryDatabasePath(self)
        var dbPool: DatabasePool? = try DatabasePool(path: path)
        try dbPool!.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        let statement = try dbPool!.read { db in try db.makeStatement(sql: "SELECT a FROM t") }
        let cursor = try dbPool!.read { db in try Row.fetchCursor(db, sql: "SELECT a FROM t") }
        dbPool = nil
        XCTAssertThrowsError(try Int.fetchAll(statement))
        XCTAssertThrowsError(try cursor.next())
    }

    func testARowCopiedOutOfAnAccessKeepsItsValues() throws {
        var dbQueue: DatabaseQueue? = try DatabaseQueue()
        let row = try dbQueue!.read { db in try Row.fetchOne(db, sql: "SELECT 1 AS a, 'x' AS b")! }
        dbQueue = nil
        XCTAssertEqual(row["a"] as Int?, 1)
        XCTAssertEqual(row["b"] as String?, "x")
    }

    func testAStatementUsedOutsideOfItsAccessThrows() throws {
        // The connection may be in use on its queue: the statement must not touch it.
        let dbQueue = try DatabaseQueue()
        let statement = try dbQueue.read { db in try db.makeStatement(sql: "SELECT 1") }
        let cursor = try dbQueue.read { db in try Int.fetchCursor(db, sql: "SELECT 1 UNION ALL SELECT 2") }
        XCTAssertThrowsError(try statement.execute()) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .SQLITE_MISUSE)
            XCTAssertTrue("\(error)".contains("outside of a database access"), "\(error)")
        }
        XCTAssertThrowsError(try cursor.next())
        // Inside a later access of the same connection, the statement serves again.
        XCTAssertEqual(try dbQueue.read { _ in try Int.fetchOne(statement) }, 1)
    }

    func testStatementsReleasedOnAnotherThreadWhileTheConnectionWorks() throws {
        // Released outside of their access, statements are finalized by the connection at
        // its next access, not on the releasing thread (the sanitizers watch this test).
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        let group = DispatchGroup()
        for _ in 0..<50 {
            // What an application does when it lets a statement escape (Swift forbids
            // it without `nonisolated(unsafe)`): the last reference goes on another thread.
            let box = StatementBox(try dbQueue.read { db in try db.makeStatement(sql: "SELECT a FROM t") })
            DispatchQueue.global().async(group: group) { box.statement = nil }
            _ = try dbQueue.read { try Int.fetchAll($0, sql: "SELECT a FROM t") }
        }
        group.wait()
        XCTAssertEqual(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") }, 1)
    }
}

extension LifetimeTests {
    func testACursorRowReadOutsideOfItsAccessIsFatal() throws {
        try assertFatalError(
            inScenario: "RippleTests.LifetimeFatalErrorScenarios/testCursorRowReadOutsideOfItsAccess",
            "A row of a cursor was read outside of the database access", "row.copy()")
    }

    /// The access check compares the innermost access first: a row of a nested access
    /// read once that access ended, inside the access around it, is still caught.
    func testACursorRowOfANestedAccessReadAfterItEndedIsFatal() throws {
        try assertFatalError(
            inScenario: "RippleTests.LifetimeFatalErrorScenarios/testCursorRowOfANestedAccessReadAfterItEnded",
            "A row of a cursor was read outside of the database access")
    }

    /// A row read inside an access to another connection only is caught.
    func testACursorRowReadInsideAnotherConnectionsAccessIsFatal() throws {
        try assertFatalError(
            inScenario: "RippleTests.LifetimeFatalErrorScenarios/testCursorRowReadInsideAnotherConnectionsAccess",
            "A row of a cursor was read outside of the database access")
    }

    /// Out-of-range indexes are programmer errors, for statement rows and copied rows,
    /// below zero and from the column count on.
    func testRowIndexesOutOfRangeAreFatal() throws {
        try assertFatalError(
            inScenario: "RippleTests.LifetimeFatalErrorScenarios/testStatementRowIndexAtCount",
            "Row index 2 out of range 0..<2")
        try assertFatalError(
            inScenario: "RippleTests.LifetimeFatalErrorScenarios/testStatementRowNegativeIndex",
            "Row index -1 out of range 0..<2")
        try assertFatalError(
            inScenario: "RippleTests.LifetimeFatalErrorScenarios/testCopiedRowIndexAtCount",
            "Row index 2 out of range 0..<2")
        try assertFatalError(
            inScenario: "RippleTests.LifetimeFatalErrorScenarios/testCopiedRowNegativeIndex",
            "Row index -1 out of range 0..<2")
    }

    func testACopiedRowIsDecodedFromManyThreadsAtOnce() throws {
        // Copied rows are immutable: no decoder is cached in them (ThreadSanitizer watches).
        struct Player: Decodable, FetchableRecord, Equatable {
            var id: Int
            var name: String
        }
        let dbQueue = try DatabaseQueue()
        let row = try dbQueue.read { try Row.fetchOne($0, sql: "SELECT 1 AS id, 'Arthur' AS name")! }
        let failures = LockedCounter()
        DispatchQueue.concurrentPerform(iterations: 200) { _ in
            if (try? Player(row: row)) != Player(id: 1, name: "Arthur") { failures.increment() }
        }
        XCTAssertEqual(failures.value, 0)
    }
}

/// Carries a statement to another thread, as an application that breaks the rules would.
private final class StatementBox: @unchecked Sendable {  // deliberately false: the test needs it
    var statement: Statement?
    init(_ statement: Statement) { self.statement = statement }
}
