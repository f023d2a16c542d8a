import CSQLite
import Foundation
import XCTest

@testable import Ripple

final class RowTests: XCTestCase {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INT);
                    INSERT INTO player VALUES (1, 'Arthur', 100), (2, 'Barbara', NULL), (3, 'Craig', 50);
                    """)
        }
        return dbQueue
    }

    func testSubscriptByIndexAndCaseInsensitiveName() throws {
        let row = try makeDatabase().read { try Row.fetchOne($0, sql: "SELECT id, name, score FROM player WHERE id = 1") }!
        XCTAssertEqual(row.count, 3)
        XCTAssertEqual(row.columnNames, ["id", "name", "score"])
        let id: Int = row[0]
        let name: String = row["NAME"]
        let score: Int? = row["Score"]
        XCTAssertEqual(id, 1)
        XCTAssertEqual(name, "Arthur")
        XCTAssertEqual(score, 100)
        XCTAssertEqual(row["name"] as? String, "Arthur")
        XCTAssertEqual(row[0] as? Int64, 1)
        XCTAssertNil(row["missing"])
        XCTAssertTrue(row.hasColumn("ID"))
        XCTAssertFalse(row.hasColumn("missing"))
    }

    func testLeftmostColumnWins() throws {
        let row = try makeDatabase().read { try Row.fetchOne($0, sql: "SELECT 1 AS a, 2 AS A") }!
        XCTAssertEqual(row["a"] as Int, 1)
        XCTAssertEqual(row["A"] as Int, 2)  // exact match first
    }

    func testTypedAccessOfNull() throws {
        let row = try makeDatabase().read { try Row.fetchOne($0, sql: "SELECT * FROM player WHERE id = 2") }!
        let score: Int? = row["score"]
        XCTAssertNil(score)
        XCTAssertTrue(row.hasNull(atIndex: 2))
        let error = assertDatabaseError(.SQLITE_MISMATCH) { let _: Int = try row.decode(forColumn: "score") }
        XCTAssertEqual(error?.message, "unexpected NULL: could not decode Int in column \"score\" (index 2)")
    }

    func testMissingColumnThrowsForNonOptional() throws {
        let row = try makeDatabase().read { try Row.fetchOne($0, sql: "SELECT id FROM player") }!
        let error = assertDatabaseError(.SQLITE_MISMATCH) { let _: Int = try row.decode(forColumn: "nope") }
        XCTAssertEqual(error?.message, "no such column: \"nope\" (columns: id)")
        let optional: Int? = row["nope"]
        XCTAssertNil(optional)
    }

    func testGenericTypedAccess() throws {
        let row = try makeDatabase().read { try Row.fetchOne($0, sql: "SELECT id, x'0102' AS uuidish FROM player") }!
        let value: DatabaseValue = row["id"]
        XCTAssertEqual(value, 1.databaseValue)
        assertDatabaseError(.SQLITE_MISMATCH) { let _: UUID = try row.decode(forColumn: "uuidish") }
    }

    func testCursorStreamsRowsAndRowsAreReused() throws {
        try makeDatabase().read { db in
            let cursor = try Row.fetchCursor(db, sql: "SELECT name FROM player ORDER BY id")
            var names: [String] = []
            var rows: [Row] = []
            while let row = try cursor.next() {
                names.append(row["name"])
                rows.append(row)
            }
            XCTAssertEqual(names, ["Arthur", "Barbara", "Craig"])
            XCTAssertTrue(rows[0] === rows[2], "a cursor reuses one row")
            XCTAssertNil(try cursor.next())
        }
    }

    func testCopyKeepsValues() throws {
        try makeDatabase().read { db in
            let cursor = try Row.fetchCursor(db, sql: "SELECT name FROM player ORDER BY id")
            let first = try cursor.next()!.copy()
            _ = try cursor.next()
            XCTAssertEqual(first["name"] as String, "Arthur")
        }
    }

    func testFetchAllOneAndSet() throws {
        try makeDatabase().read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT name FROM player ORDER BY id")
            XCTAssertEqual(rows.map { $0["name"] as? String }, ["Arthur", "Barbara", "Craig"])
            XCTAssertEqual(try Row.fetchOne(db, sql: "SELECT name FROM player WHERE id = ?", arguments: [3]), ["name": "Craig"])
            XCTAssertNil(try Row.fetchOne(db, sql: "SELECT * FROM player WHERE id = 99"))
            XCTAssertEqual(try Row.fetchSet(db, sql: "SELECT 1 UNION ALL SELECT 1 UNION ALL SELECT 2").count, 2)
            XCTAssertEqual(try String.fetchSet(db, sql: "SELECT 'a' UNION ALL SELECT 'a'"), ["a"])
        }
    }

    func testFetchFromPreparedStatement() throws {
        try makeDatabase().read { db in
            let statement = try db.makeStatement(sql: "SELECT name FROM player WHERE id = ?")
            XCTAssertEqual(try String.fetchOne(statement, arguments: [1]), "Arthur")
            XCTAssertEqual(try String.fetchAll(statement, arguments: [2]), ["Barbara"])
            XCTAssertEqual(try Row.fetchAll(statement, arguments: [3]), [["name": "Craig"]])
        }
    }

    func testEqualityAndDescription() throws {
        let row: Row = ["id": 1, "name": "Arthur", "score": nil]
        XCTAssertEqual(row, ["id": 1, "name": "Arthur", "score": nil])
        XCTAssertNotEqual(row, ["id": 1, "name": "Arthur"])
        XCTAssertNotEqual(row, ["ID": 1, "name": "Arthur", "score": nil])
        XCTAssertEqual(row.description, "[id:1 name:\"Arthur\" score:NULL]")
        XCTAssertEqual(Set([row, ["id": 1, "name": "Arthur", "score": nil] as Row]).count, 1)
        XCTAssertEqual(Array(row).map(\.0), ["id", "name", "score"])
    }

    func testCursorOperators() throws {
        try makeDatabase().read { db in
            let upper = try Array(String.fetchCursor(db, sql: "SELECT name FROM player ORDER BY id").map { $0.uppercased() })
            XCTAssertEqual(upper, ["ARTHUR", "BARBARA", "CRAIG"])
            let long = try Array(String.fetchCursor(db, sql: "SELECT name FROM player ORDER BY id").filter { $0.count > 5 })
            XCTAssertEqual(long, ["Arthur", "Barbara"])
            let total = try Int.fetchCursor(db, sql: "SELECT id FROM player").reduce(0, +)
            XCTAssertEqual(total, 6)
            XCTAssertTrue(try Int.fetchCursor(db, sql: "SELECT id FROM player").contains { $0 == 2 })
            XCTAssertEqual(try Int.fetchCursor(db, sql: "SELECT id FROM player ORDER BY id").first { $0 > 1 }, 2)
        }
    }

    func testCursorErrorsAreThrown() throws {
        try makeDatabase().read { db in
            let cursor = try Int.fetchCursor(db, sql: "SELECT CASE WHEN id = 2 THEN 'x' ELSE id END FROM player ORDER BY id")
            XCTAssertEqual(try cursor.next(), 1)
            assertDatabaseError(.SQLITE_MISMATCH) { try cursor.next() }
        }
    }

    func testValueFetchingWithArguments() throws {
        try makeDatabase().read { db in
            XCTAssertEqual(try String.fetchOne(db, sql: "SELECT name FROM player WHERE id = ?", arguments: [2]), "Barbara")
            XCTAssertEqual(try Int.fetchAll(db, sql: "SELECT id FROM player WHERE score > :min ORDER BY id", arguments: ["min": 10]), [1, 3])
        }
    }

    func testRowsFromDictionariesAndUnsafeData() throws {
        let row = Row(["a": 1, "b": nil])
        XCTAssertEqual(Set(row.columnNames), ["a", "b"])
        XCTAssertEqual(row["a"] as Int, 1)
        XCTAssertTrue(row.hasNull(atIndex: row.index(forColumn: "b")!))
        XCTAssertEqual(Row(["a": "x", "b": NSNull()] as [AnyHashable: Any])?["a"] as String?, "x")
        XCTAssertNil(Row([1: "x"] as [AnyHashable: Any]), "keys must be strings")
        XCTAssertNil(Row(["a": Date.self] as [AnyHashable: Any]), "values must be database values")

        try DatabaseQueue().read { db in
            let row = try XCTUnwrap(Row.fetchOne(db, sql: "SELECT x'0102' AS blob, 'hi' AS text, NULL AS none, 3 AS number"))
            XCTAssertEqual(try row.withUnsafeData(named: "blob") { $0 }, Data([1, 2]))
            XCTAssertEqual(try row.withUnsafeData(atIndex: 1) { $0 }, Data("hi".utf8))
            XCTAssertNil(try row.withUnsafeData(named: "none") { $0 })
            XCTAssertNil(try row.withUnsafeData(named: "missing") { $0 })
            XCTAssertNil(try row.withUnsafeData(at: Column("missing")) { $0 })
            XCTAssertThrowsError(try row.withUnsafeData(named: "number") { $0 })
        }
        XCTAssertEqual(Database.sqliteLibVersionNumber, sqlite3_libversion_number())
    }
}
