import XCTest

@testable import Ripple

final class StatementTests: XCTestCase {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INT)")
        }
        return dbQueue
    }

    func testMakeStatementAndExecuteWithArguments() throws {
        try makeDatabase().write { db in
            let statement = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (?, ?)")
            XCTAssertEqual(statement.parameterCount, 2)
            XCTAssertFalse(statement.isReadonly)
            try statement.execute(arguments: ["Arthur", 100])
            try statement.execute(arguments: ["Barbara", 200])
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT SUM(score) FROM player"), 300)
        }
    }

    /// As in GRDB: a statement's SQL, its errors and traces show it without the white space
    /// and semicolons around it.
    func testStatementSQLIsTrimmed() throws {
        try makeDatabase().write { db in
            XCTAssertEqual(try db.makeStatement(sql: " \n SELECT 1 ; ").sql, "SELECT 1")
            XCTAssertEqual(try db.makeStatement(sql: "SELECT ';'").sql, "SELECT ';'")
            var traced: [String] = []
            var expanded: [String] = []
            db.trace { event in
                if case .statement(let statement) = event {
                    traced.append(statement.sql)
                    expanded.append(statement.expandedSQL)
                }
            }
            try db.execute(sql: "DELETE FROM player;\n  INSERT INTO player (name) VALUES (?);", arguments: ["a"])
            XCTAssertEqual(traced, ["DELETE FROM player", "INSERT INTO player (name) VALUES (?)"])
            XCTAssertEqual(expanded.last, "INSERT INTO player (name) VALUES ('a')")
            let error = assertDatabaseError(.SQLITE_ERROR) { try db.execute(sql: "SELECT 1;\n SELECT * FROM missing;") }
            XCTAssertEqual(error?.sql, "SELECT * FROM missing")
        }
    }

    func testPositionalValuesOfEveryKindBindInPlace() throws {
        // Binding reads optional existentials where they lie; the layout it relies on is
        // checked once, and must hold on the platforms Ripple runs on.
        XCTAssertNotNil(PositionalValueLayout.verified)
        try makeDatabase().write { db in
            let statement = try db.makeStatement(sql: "SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?")
            let bigText = String(repeating: "x", count: 100)
            let values: StatementArguments = [nil, 1, "a", nil, Data([0, 1]), 2.5, bigText, DatabaseValue.null, Int64.max, Int.min, Int8(-3)]
            let row = try Row.fetchOne(statement, arguments: values)!
            XCTAssertTrue(row.hasNull(atIndex: 0))
            XCTAssertEqual(row[1] as Int, 1)
            XCTAssertEqual(row[2] as String, "a")
            XCTAssertTrue(row.hasNull(atIndex: 3))
            XCTAssertEqual(row[4] as Data, Data([0, 1]))
            XCTAssertEqual(row[5] as Double, 2.5)
            XCTAssertEqual(row[6] as String, bigText)
            XCTAssertTrue(row.hasNull(atIndex: 7))
            XCTAssertEqual(row[8] as Int64, Int64.max)
            XCTAssertEqual(row[9] as Int, Int.min)
            XCTAssertEqual(row[10] as Int, -3)
            // Values after the ones a statement consumed (multi-statement execution).
            try db.execute(sql: "CREATE TABLE t(a, b); INSERT INTO t VALUES (?, ?); INSERT INTO t VALUES (?, ?)", arguments: [1, nil, nil, "z"])
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT quote(a) || ',' || quote(b) FROM t"), ["1,NULL", "NULL,'z'"])
        }
    }

    func testSetArgumentsThenExecute() throws {
        try makeDatabase().write { db in
            let statement = try db.makeStatement(sql: "INSERT INTO player (name) VALUES (:name)")
            try statement.setArguments(["name": "Arthur"])
            XCTAssertEqual(statement.arguments, ["name": "Arthur"])
            try statement.execute()
            try statement.execute()  // the same arguments again
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player WHERE name = 'Arthur'"), 2)
        }
    }

    func testNamedParameterPrefixes() throws {
        try makeDatabase().write { db in
            try db.execute(
                sql: "INSERT INTO player (id, name, score) VALUES (:id, @name, $score)",
                arguments: ["id": 1, "name": "Arthur", "score": 10])
            let row = try Row.fetchOne(db, sql: "SELECT * FROM player")
            XCTAssertEqual(row, ["id": 1, "name": "Arthur", "score": 10])
        }
    }

    func testNamedParametersFilledByPositionalValues() throws {
        try makeDatabase().write { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (:id, :name)", arguments: [1, "Arthur"])
            XCTAssertEqual(try String.fetchOne(db, sql: "SELECT name FROM player WHERE id = 1"), "Arthur")
        }
    }

    func testExecutingWithoutArgumentsWhenSomeAreNeededThrows() throws {
        try makeDatabase().write { db in
            let statement = try db.makeStatement(sql: "INSERT INTO player (name) VALUES (?)")
            let error = assertDatabaseError(.SQLITE_MISUSE) { try statement.execute() }
            XCTAssertEqual(error?.message, "wrong number of statement arguments: 0 given, 1 expected")
            XCTAssertEqual(error?.sql, "INSERT INTO player (name) VALUES (?)")
        }
    }

    func testWrongArgumentCountThrows() throws {
        try makeDatabase().write { db in
            let statement = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (?, ?)")
            let tooFew = assertDatabaseError(.SQLITE_MISUSE) { try statement.execute(arguments: ["Arthur"]) }
            XCTAssertEqual(tooFew?.message, "wrong number of statement arguments: 1 given, 2 expected")
            XCTAssertEqual(tooFew?.arguments, ["Arthur"])
            let tooMany = assertDatabaseError(.SQLITE_MISUSE) { try statement.execute(arguments: ["Arthur", 1, 2]) }
            XCTAssertEqual(tooMany?.message, "wrong number of statement arguments: 3 given, 2 expected")
            assertDatabaseError(.SQLITE_MISUSE) { try statement.validateArguments([1]) }
            XCTAssertNoThrow(try statement.validateArguments([1, 2]))
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player"), 0)
        }
    }

    func testMissingNamedArgumentThrows() throws {
        try makeDatabase().write { db in
            let error = assertDatabaseError(.SQLITE_MISUSE) {
                try db.execute(sql: "INSERT INTO player (name, score) VALUES (:name, :score)", arguments: ["name": "Arthur"])
            }
            XCTAssertEqual(error?.message, "missing statement argument(s): :score")
        }
    }

    func testMakeStatementRefusesSeveralStatements() throws {
        try makeDatabase().write { db in
            let error = assertDatabaseError(.SQLITE_MISUSE) {
                try db.makeStatement(sql: "SELECT 1; SELECT 2")
            }
            XCTAssertEqual(
                error?.message,
                "Multiple statements found. To execute multiple statements, use Database.execute(sql:) or Database.allStatements(sql:) instead.")
            XCTAssertNoThrow(try db.makeStatement(sql: "SELECT 1; -- comment only"))
        }
    }

    func testInvalidSQLThrowsWithTheSQL() throws {
        try makeDatabase().write { db in
            let error = assertDatabaseError(.SQLITE_ERROR) { try db.execute(sql: "SELEC * FROM player") }
            XCTAssertEqual(error?.sql, "SELEC * FROM player")
            XCTAssertTrue(error?.message?.contains("syntax error") ?? false)
            XCTAssertTrue(error?.description.contains("SELEC * FROM player") ?? false)
            assertDatabaseError(.SQLITE_ERROR) { try db.makeStatement(sql: "SELECT * FROM missing") }
        }
    }

    func testCachedStatementIsReused() throws {
        try makeDatabase().write { db in
            let first = try db.cachedStatement(sql: "SELECT * FROM player")
            let second = try db.cachedStatement(sql: "SELECT * FROM player")
            XCTAssertTrue(first === second)
            XCTAssertTrue(first.isReadonly)
            XCTAssertEqual(first.columnNames, ["id", "name", "score"])
        }
    }

    func testCachedStatementInUseByACursorIsNotReused() throws {
        try makeDatabase().write { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('a'), ('b')")
            let sql = "SELECT name FROM player ORDER BY id"
            let cursor = try String.fetchCursor(db, sql: sql)
            XCTAssertEqual(try cursor.next(), "a")
            // The same SQL while the cursor is open: a fresh statement, the cursor goes on.
            XCTAssertEqual(try String.fetchAll(db, sql: sql), ["a", "b"])
            XCTAssertEqual(try cursor.next(), "b")
            XCTAssertNil(try cursor.next())
        }
    }

    func testConstraintViolationHasExtendedCode() throws {
        try makeDatabase().write { db in
            try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
            let error = assertDatabaseError(.SQLITE_CONSTRAINT_PRIMARYKEY) {
                try db.execute(sql: "INSERT INTO player (id) VALUES (?)", arguments: [1])
            }
            XCTAssertEqual(error?.resultCode, .SQLITE_CONSTRAINT)
            XCTAssertEqual(error?.extendedResultCode, .SQLITE_CONSTRAINT_PRIMARYKEY)
            XCTAssertEqual(error?.message, "UNIQUE constraint failed: player.id")
            XCTAssertEqual(error?.arguments, [1])
            // As GRDB prints it: the primary code, and the arguments only in the expanded
            // description (see `PublicStatementArgumentsTests`).
            XCTAssertEqual(
                error?.description,
                "SQLite error 19: UNIQUE constraint failed: player.id - while executing `INSERT INTO player (id) VALUES (?)`")
            XCTAssertEqual(
                error?.expandedDescription,
                "SQLite error 19: UNIQUE constraint failed: player.id - while executing `INSERT INTO player (id) VALUES (?)` with arguments [1]")
            // The failed statement did not lose what was committed.
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player"), 1)
        }
    }

    /// Records and rows read by column names from a cached `SELECT *` whose columns were
    /// renamed (as many columns, in another order): SQLite compiles the statement again at
    /// its first step, and the names must be looked up again, not predicted from the last
    /// execution.
    /// Swaps the names of the columns `a` and `b` of table `t`: `SELECT * FROM t` then
    /// has as many columns, in another order.
    private static let swapColumnNames = """
        ALTER TABLE t RENAME COLUMN a TO tmp;
        ALTER TABLE t RENAME COLUMN b TO a;
        ALTER TABLE t RENAME COLUMN tmp TO b
        """

    func testColumnNamesOfAStatementRecompiledWithAsManyColumns() throws {
        struct Pair: FetchableRecord {
            var a: Int, b: Int
            init(row: Row) throws {
                a = row["a"]
                b = row["b"]
            }
        }
        struct DecodablePair: Decodable, FetchableRecord { var a: Int, b: Int }
        func readDecodables(_ db: Database) throws -> [[Int]] {
            try DecodablePair.fetchAll(db, sql: "SELECT * FROM t").map { [$0.a, $0.b] }
        }
        func readRows(_ db: Database) throws -> [[Int]] {
            let cursor = try Row.fetchCursor(db.cachedStatement(sql: "SELECT * FROM t"))
            var values: [[Int]] = []
            while let row = try cursor.next() { values.append([row["a"], row["b"]]) }
            return values
        }
        let swapNames = Self.swapColumnNames
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a INTEGER, b INTEGER); INSERT INTO t VALUES (1, 2)")
            XCTAssertEqual(try Pair.fetchAll(db, sql: "SELECT * FROM t").map { [$0.a, $0.b] }, [[1, 2]])
            XCTAssertEqual(try readDecodables(db), [[1, 2]])
            // The first column is now b, the second a.
            try db.execute(sql: swapNames)
            XCTAssertEqual(try Pair.fetchAll(db, sql: "SELECT * FROM t").map { [$0.a, $0.b] }, [[2, 1]])
            XCTAssertEqual(try readRows(db), [[2, 1]])
            XCTAssertEqual(try readDecodables(db), [[2, 1]])
            try db.execute(sql: swapNames)
            XCTAssertEqual(try readRows(db), [[1, 2]])
            XCTAssertEqual(try Pair.fetchAll(db, sql: "SELECT * FROM t").map { [$0.a, $0.b] }, [[1, 2]])
            // The row a cursor held before its first step reads the new columns too.
            try db.execute(sql: swapNames)
            let cursor = try Row.fetchCursor(db.cachedStatement(sql: "SELECT * FROM t"))
            let earlyRow = cursor.row
            XCTAssertNotNil(try cursor.next())
            XCTAssertEqual([earlyRow["a"] as Int, earlyRow["b"] as Int], [2, 1])
        }
    }

    func testDecodableRecordsOfAStatementRecompiledWithAsManyColumns() throws {
        // A statement keeps the column lookups of its `Decodable` records from one cursor
        // to the next; they do not survive a recompilation that moved the columns.
        struct DecodablePair: Decodable, FetchableRecord { var a: Int, b: Int }
        struct DecodableSwapped: Decodable, FetchableRecord { var b: Int, a: Int }
        let swapNames = Self.swapColumnNames
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a INTEGER, b INTEGER); INSERT INTO t VALUES (1, 2)")
            let statement = try db.cachedStatement(sql: "SELECT * FROM t")
            func read() throws -> [[Int]] { try DecodablePair.fetchAll(statement).map { [$0.a, $0.b] } }
            XCTAssertEqual(try read(), [[1, 2]])
            XCTAssertEqual(try read(), [[1, 2]])
            // Two record types with their own keys, from one statement.
            XCTAssertEqual(try DecodableSwapped.fetchAll(statement).map { [$0.a, $0.b] }, [[1, 2]])
            XCTAssertEqual(try read(), [[1, 2]])
            try db.execute(sql: swapNames)
            XCTAssertEqual(try read(), [[2, 1]])
            XCTAssertEqual(try DecodableSwapped.fetchAll(statement).map { [$0.a, $0.b] }, [[2, 1]])
            // The row a cursor held before its first step, decoded after it.
            try db.execute(sql: swapNames)
            let cursor = try Row.fetchCursor(statement)
            let earlyRow = cursor.row
            XCTAssertNotNil(try cursor.next())
            let early = try DecodablePair(row: earlyRow)
            XCTAssertEqual([early.a, early.b], [1, 2])
        }
    }

    func testAStatementKeepsTheLookupsOfItsDecodableRecords() throws {
        struct Item: Decodable, FetchableRecord { var id: Int, name: String }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO item VALUES (1, 'a')")
            let statement = try db.cachedStatement(sql: "SELECT * FROM item")
            XCTAssertTrue(statement.columnIndexCache.recordPredictions.byKey.isEmpty)
            XCTAssertEqual(try Item.fetchAll(statement).map(\.name), ["a"])
            XCTAssertEqual(statement.columnIndexCache.recordPredictions.byKey.count, 2, "the next cursor starts with them")
        }
    }

    func testARowThatEndsOutsideOfTheAccessLeavesTheLookupsOfItsStatementAlone() throws {
        // The lookups belong to the connection's queue, which another thread may use then.
        struct Item: Decodable, FetchableRecord { var id: Int, name: String }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO item VALUES (1, 'a')")
        }
        var kept: Row?
        let statement = try dbQueue.read { db in
            let statement = try db.cachedStatement(sql: "SELECT * FROM item")
            let cursor = try Row.fetchCursor(statement)
            let row = try XCTUnwrap(cursor.next())
            XCTAssertEqual(try Item(row: row).name, "a")
            kept = row
            return statement
        }
        kept = nil  // the row ends here, outside of any access
        try dbQueue.read { _ in
            XCTAssertTrue(statement.columnIndexCache.recordPredictions.byKey.isEmpty)
        }
        XCTAssertNil(kept)
    }
}
