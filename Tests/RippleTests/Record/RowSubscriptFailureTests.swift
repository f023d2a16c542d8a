import Foundation
import XCTest

@testable import Ripple

/// Row subscripts do not throw, as GRDB's do not; a value they cannot convert inside
/// `init(row:)` of a fetched record is thrown by the fetch (`RowDecodingScope`).
final class RowSubscriptFailureTests: XCTestCase {
    /// Written as GRDB apps write it: plain subscripts, a non-throwing initializer.
    struct Player: FetchableRecord, Hashable {
        var id: Int64
        var name: String
        var score: Int?
        init(row: Row) {
            id = row["id"]
            name = row["name"]
            score = row["score"]
        }
    }

    enum Columns: String, ColumnExpression { case id, name, score }

    /// The same, read by column expressions.
    struct ColumnPlayer: FetchableRecord {
        var id: Int64
        var name: String
        init(row: Row) {
            id = row[Columns.id]
            name = row[Column("name")]
        }
    }

    private func makeQueue(rows: String) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score)")
            try db.execute(sql: "INSERT INTO player VALUES \(rows)")
        }
        return dbQueue
    }

    func testGoodRowsDecode() throws {
        let dbQueue = try makeQueue(rows: "(1, 'Arthur', 10), (2, 'Barbara', NULL)")
        let players = try dbQueue.read { db in try Player.fetchAll(db, sql: "SELECT * FROM player ORDER BY id") }
        XCTAssertEqual(players.map(\.name), ["Arthur", "Barbara"])
        XCTAssertEqual(players.map(\.score), [10, nil])
        let byColumns = try dbQueue.read { db in try ColumnPlayer.fetchAll(db, sql: "SELECT * FROM player ORDER BY id") }
        XCTAssertEqual(byColumns.map(\.name), ["Arthur", "Barbara"])
        XCTAssertEqual(byColumns.map(\.id), [1, 2])
    }

    func testNullIntoNonOptionalThrowsFromEveryFetch() throws {
        let dbQueue = try makeQueue(rows: "(1, 'Arthur', 10), (2, NULL, 20)")
        try dbQueue.read { db in
            let sql = "SELECT * FROM player ORDER BY id"
            let error = assertDatabaseError(.SQLITE_MISMATCH) { try Player.fetchAll(db, sql: sql) }
            XCTAssertEqual(error?.message?.contains("unexpected NULL"), true, "\(String(describing: error))")
            XCTAssertEqual(error?.message?.contains("String"), true, "\(String(describing: error))")
            XCTAssertEqual(error?.sql, sql)
            assertDatabaseError(.SQLITE_MISMATCH) { try Player.fetchOne(db, sql: "SELECT * FROM player WHERE id = 2") }
            assertDatabaseError(.SQLITE_MISMATCH) { try Player.fetchSet(db, sql: sql) }
            assertDatabaseError(.SQLITE_MISMATCH) { try ColumnPlayer.fetchAll(db, sql: sql) }

            // A cursor hands out the good record, then throws for the bad one.
            let cursor = try Player.fetchCursor(db, sql: sql)
            XCTAssertEqual(try cursor.next()?.name, "Arthur")
            assertDatabaseError(.SQLITE_MISMATCH) { try cursor.next() }
        }
    }

    func testTextIntoIntAndMissingColumnThrow() throws {
        let dbQueue = try makeQueue(rows: "(1, 'Arthur', 'abc')")
        try dbQueue.read { db in
            let error = assertDatabaseError(.SQLITE_MISMATCH) { try Player.fetchAll(db, sql: "SELECT * FROM player") }
            XCTAssertEqual(error?.message?.contains("abc"), true, "\(String(describing: error))")
            let missing = assertDatabaseError(.SQLITE_MISMATCH) { try Player.fetchAll(db, sql: "SELECT id, score FROM player") }
            XCTAssertEqual(missing?.message?.contains("no such column: \"name\""), true, "\(String(describing: missing))")
        }
    }

    func testFirstFailureIsThrown() throws {
        struct TwoColumns: FetchableRecord {
            init(row: Row) throws {
                let _: String = row["name"]  // NULL: the cause
                let _: Int = row["score"]  // 'abc': a second failure, not reported
                throw DatabaseError(message: "thrown by init(row:) after the failures")
            }
        }
        let dbQueue = try makeQueue(rows: "(1, NULL, 'abc')")
        let error = try dbQueue.read { db in
            assertDatabaseError(.SQLITE_MISMATCH) { try TwoColumns.fetchAll(db, sql: "SELECT * FROM player") }
        }
        XCTAssertEqual(error?.message?.contains("unexpected NULL"), true, "\(String(describing: error))")
    }

    func testNoFailureOutlivesItsFetch() throws {
        let dbQueue = try makeQueue(rows: "(1, NULL, 10)")
        try dbQueue.read { db in
            assertDatabaseError(.SQLITE_MISMATCH) { try Player.fetchAll(db, sql: "SELECT * FROM player") }
            XCTAssertFalse(RowDecodingScope.isActive)
            XCTAssertNil(RowDecodingScope.takeFailure())
            // The next fetch of good data succeeds.
            let players = try Player.fetchAll(db, sql: "SELECT 1 AS id, 'Craig' AS name, NULL AS score")
            XCTAssertEqual(players.map(\.name), ["Craig"])
        }
    }

    /// A fetch inside `init(row:)` (a record that reads a second row while it is built)
    /// throws its own failure; the outer fetch throws what it receives.
    struct Outer: FetchableRecord {
        var inner: [Player]
        init(row: Row) throws {
            let sql: String = row["sql"]
            inner = try Player.fetchAll(Self.database!, sql: sql)
        }
        // Set only by the test below, on its thread, for the duration of its read.
        nonisolated(unsafe) static var database: Database?
    }

    func testNestedFetchesKeepTheirFailures() throws {
        let dbQueue = try makeQueue(rows: "(1, NULL, 10)")
        try dbQueue.read { db in
            Outer.database = db
            defer { Outer.database = nil }
            let good = try Outer.fetchAll(db, sql: "SELECT 'SELECT 2 AS id, ''x'' AS name, NULL AS score' AS sql")
            XCTAssertEqual(good.first?.inner.map(\.name), ["x"])
            assertDatabaseError(.SQLITE_MISMATCH) { try Outer.fetchAll(db, sql: "SELECT 'SELECT * FROM player' AS sql") }
            XCTAssertFalse(RowDecodingScope.isActive)
        }
    }

    func testValueObservationReportsTheFailure() throws {
        let dbQueue = try makeQueue(rows: "(1, NULL, 10)")
        let failed = expectation(description: "error")
        let observation = ValueObservation.tracking { db in try Player.fetchAll(db, sql: "SELECT * FROM player") }
        let cancellable = observation.start(in: dbQueue, scheduling: .async(onQueue: .global())) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .SQLITE_MISMATCH)
            failed.fulfill()
        } onChange: { _ in
            XCTFail("no value expected")
        }
        wait(for: [failed], timeout: 10)
        cancellable.cancel()
    }

    func testPlaceholders() {
        XCTAssertEqual(RowDecodingScope.placeholder(String.self), "")
        XCTAssertEqual(RowDecodingScope.placeholder(Int.self), 0)
        XCTAssertEqual(RowDecodingScope.placeholder(Double.self), 0)
        XCTAssertEqual(RowDecodingScope.placeholder(Data.self), Data())
        XCTAssertEqual(RowDecodingScope.placeholder(String?.self), .some(nil))
        XCTAssertNil(RowDecodingScope.placeholder(UUID.self))
    }

    /// Outside of a fetch there is nothing to throw: the subscript stops the process, as
    /// GRDB's does, with a message that names the throwing spelling. Run in a child process.
    func testSubscriptOutsideOfFetchStopsWithAMessage() throws {
        let path = try makeTemporaryDatabasePath(self)
        let process = Process()
        process.executableURL = ExternalChangeTests.ExternalWriter.executableURL
        process.arguments = ["ripple", path]
        process.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data("subscript-null\n".utf8))
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        XCTAssertFalse(stdout.contains("value"), stdout)
        let message = String(decoding: stderr, as: UTF8.self)
        XCTAssertTrue(message.contains("unexpected NULL"), message)
        XCTAssertTrue(message.contains("try row.decode(String.self, forColumn:)"), message)
    }
}
