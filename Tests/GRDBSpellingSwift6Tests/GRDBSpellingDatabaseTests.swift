// Compiled in Swift 6 and Swift 5 language modes (see GRDBSpellingTests.swift): databases,
// statements, rows and schema, written as GRDB code writes them.
import Dispatch
import Foundation
import Ripple
import XCTest

private struct Fetched: DatabaseValueConvertible, StatementColumnConvertible, Hashable {
    let int: Int

    init(int: Int) {
        self.int = int
    }

    init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let int = Int(sqliteStatement: sqliteStatement, index: index) else { return nil }
        self.init(int: int)
    }

    var databaseValue: DatabaseValue { int.databaseValue }

    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Fetched? {
        Int.fromDatabaseValue(dbValue).map(Fetched.init(int:))
    }
}

final class GRDBSpellingDatabaseTests: XCTestCase {
    func testSchemaIntrospectionWithSchemaNames() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE persons (id INTEGER PRIMARY KEY, email TEXT UNIQUE)")
            let columns = try db.columns(in: "persons", in: "main")
            XCTAssertEqual(columns.map(\.name), ["id", "email"])
            XCTAssertEqual(try db.primaryKey("persons", in: "main").columns, ["id"])
            let indexes = try db.indexes(on: "persons", in: "main")
            XCTAssertEqual(indexes.first?.origin, .uniqueConstraint)
            XCTAssertEqual(try db.foreignKeys(on: "persons", in: "main").count, 0)
            XCTAssertTrue(try db.tableExists("persons", in: "main"))
            XCTAssertFalse(try db.viewExists("persons", in: "main"))
            XCTAssertFalse(try db.triggerExists("persons", in: "temp"))
            XCTAssertTrue(try db.table("persons", hasUniqueKey: ["email"]))
        }
    }

    func testAllStatements() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            let statements = try db.allStatements(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (?)", arguments: [1])
            while let statement = try statements.next() {
                try statement.execute()
            }
            let sum = try db.allStatements(literal: "SELECT SUM(a) + \(1) FROM t").map { try Int.fetchOne($0) }.next()
            XCTAssertEqual(sum, 2)
        }
    }

    func testStatementArguments() throws {
        try DatabaseQueue().read { db in
            let statement = try db.makeStatement(sql: "SELECT ? + ?")
            statement.arguments = [1, 2]
            XCTAssertEqual(try Int.fetchOne(statement), 3)
            statement.setUncheckedArguments([2, 2])
            XCTAssertEqual(try Int.fetchOne(statement), 4)
            var arguments: StatementArguments = [1]
            let replacedValues = arguments.append(contentsOf: [2])
            XCTAssert(replacedValues.isEmpty)
            arguments += ["name": "x"]
            XCTAssertEqual(arguments &+ ["name": "y"], [1, 2] + ["name": "y"])
        }
    }

    func testFetchingWithRequestsOfAnyType() throws {
        try DatabaseQueue().read { db in
            let sql = "SELECT 1 UNION ALL SELECT 2"
            XCTAssertEqual(try Fetched.fetchAll(db, SQLRequest<Void>(sql: sql)).map(\.int), [1, 2])
            XCTAssertEqual(try Fetched.fetchCursor(db, SQLRequest<Void>(sql: sql)).next()?.int, 1)
            XCTAssertEqual(try Fetched.fetchSet(db, SQLRequest<Void>(sql: sql)).count, 2)
            XCTAssertEqual(try Optional<Fetched>.fetchAll(db, SQLRequest<Void>(sql: sql)).count, 2)
            XCTAssertEqual(try Row.fetchSet(db, SQLRequest<Void>(sql: sql)).count, 2)
            XCTAssertEqual(try String.fetchCursor(db, SQLRequest<Row>(sql: "SELECT 'a'")).next(), "a")
        }
    }

    func testConfigurationOfQueues() throws {
        var config = Configuration()
        config.journalMode = .default
        config.targetQueue = DispatchQueue(label: "target")
        config.writeTargetQueue = DispatchQueue(label: "writer")
        let dbQueue = try DatabaseQueue(configuration: config)
        dbQueue.releaseMemory()
        XCTAssertEqual(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT 1") }, 1)
    }

    func testRowsAsCollectionsAdaptersAndLiterals() throws {
        try DatabaseQueue().read { db in
            let adapter = ColumnMapping(["name": "b"]).addingScopes(["suffix": SuffixRowAdapter(fromIndex: 1)])
            let row = try Row.fetchOne(db, sql: "SELECT NULL AS a, 'x' AS b", adapter: adapter)!
            XCTAssertEqual(row.distance(from: row.startIndex, to: row.endIndex), 1)
            XCTAssertFalse(row.debugDescription.isEmpty)
            let unadapted = row.unadapted
            XCTAssertEqual(unadapted.coalesce(["a", "b"]) as String?, "x")
            let statement = try db.cachedStatement(literal: "SELECT \(1)")
            XCTAssertEqual(try Int.fetchOne(statement), 1)
            XCTAssertGreaterThan(db.maximumStatementArgumentCount, 0)
            XCTAssertEqual(DatabaseError.SQLITE_OK, .SQLITE_OK)
        }
    }

    func testSuspensionNotifications() throws {
        var config = Configuration()
        config.observesSuspensionNotifications = true
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        NotificationCenter.default.post(name: Database.suspendNotification, object: nil)
        do {
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
            XCTFail("expected an error")
        } catch DatabaseError.SQLITE_ABORT {
        }
        NotificationCenter.default.post(name: Database.resumeNotification, object: nil)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
    }
}
