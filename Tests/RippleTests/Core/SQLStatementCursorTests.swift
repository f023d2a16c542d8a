import XCTest

@testable import Ripple

/// `Database.allStatements(sql:arguments:)`: the statements of a string, one at a time.
final class SQLStatementCursorTests: XCTestCase {
    func testEachStatementIsCompiledAfterThePreviousOneRan() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            let statements = try db.allStatements(
                sql: """
                    CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT);
                    INSERT INTO player (name) VALUES (?);
                    INSERT INTO player (name) VALUES (:name);
                    -- a comment
                    SELECT name FROM player ORDER BY id;
                    """,
                arguments: ["Arthur"] + ["name": "Barbara"])
            var sqls: [String] = []
            var names: [String] = []
            while let statement = try statements.next() {
                sqls.append(statement.sql)
                if statement.isReadonly {
                    names = try String.fetchAll(statement)
                } else {
                    try statement.execute()
                }
            }
            XCTAssertEqual(sqls.count, 4)
            XCTAssertEqual(sqls[1], "INSERT INTO player (name) VALUES (?)")
            XCTAssertEqual(names, ["Arthur", "Barbara"])
            XCTAssertNil(try statements.next())
        }
    }

    func testStatementsOfAllKindsFetchTheirRows() throws {
        // As GRDB: a statement without columns runs, and gives no row.
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            let statements = try db.allStatements(
                literal: """
                    CREATE TABLE t(a);
                    INSERT INTO t VALUES (0);
                    SELECT a FROM t ORDER BY a;
                    INSERT INTO t VALUES (\(1));
                    SELECT a FROM t ORDER BY a;
                    """)
            XCTAssertEqual(try Array(statements.map { try Int.fetchAll($0) }), [[], [], [0], [], [0, 1]])
            XCTAssertNil(try Int.fetchOne(db, sql: "INSERT INTO t VALUES (2)"))
            XCTAssertEqual(try Row.fetchAll(db, sql: "DELETE FROM t WHERE a = 2"), [])
            XCTAssertEqual(try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY a"), [0, 1])
        }
    }

    func testArgumentsMustAllBeUsed() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let sql = "SELECT ?; SELECT ?"
            // Too few: the statement that lacks one throws.
            let short = try db.allStatements(sql: sql, arguments: [1])
            XCTAssertNotNil(try short.next())
            XCTAssertThrowsError(try short.next()) { error in
                XCTAssertEqual((error as? DatabaseError)?.resultCode, .SQLITE_MISUSE)
            }
            XCTAssertNil(try short.next())
            // Too many: the end throws.
            let long = try db.allStatements(sql: sql, arguments: [1, 2, 3])
            XCTAssertEqual(try Int.fetchOne(long.next()!), 1)
            XCTAssertEqual(try Int.fetchOne(long.next()!), 2)
            XCTAssertThrowsError(try long.next()) { error in
                XCTAssertEqual((error as? DatabaseError)?.message, "wrong number of statement arguments: 3 given, 2 expected")
            }
            // None: the statements take their arguments when they run.
            let unbound = try db.allStatements(sql: sql)
            XCTAssertEqual(try Int.fetchOne(unbound.next()!, arguments: [10]), 10)
            XCTAssertEqual(try Int.fetchOne(unbound.next()!, arguments: [20]), 20)
            XCTAssertNil(try unbound.next())
            // A literal's interpolated values are its arguments.
            let literal = try db.allStatements(literal: "SELECT \(1); SELECT \(2) + 1")
            XCTAssertEqual(try Array(literal.map { try Int.fetchOne($0)! }), [1, 3])
        }
    }

    func testAStatementSQLiteRefusesIsNamedInTheError() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let statements = try db.allStatements(sql: "SELECT 1; SELEC 2; SELECT 3")
            XCTAssertNotNil(try statements.next())
            XCTAssertThrowsError(try statements.next()) { error in
                XCTAssertEqual((error as? DatabaseError)?.sql, "SELEC 2")
            }
        }
    }
}
