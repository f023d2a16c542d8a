import CSQLite
import Foundation
import XCTest

@testable import Ripple

final class DatabaseAggregateTests: XCTestCase {
    private var aliveAtStart = (sum: 0, failing: 0)

    override func setUp() {
        super.setUp()
        aliveAtStart = (Sum.census.alive, Failing.census.alive)
    }

    override func tearDown() {
        // Whatever a test did, no aggregate outlives it.
        XCTAssertEqual(Sum.census.alive, aliveAtStart.sum, "leaked Sum")
        XCTAssertEqual(Failing.census.alive, aliveAtStart.failing, "leaked Failing")
        super.tearDown()
    }

    // MARK: - Values

    func testArgumentsAndResultsOfEveryType() throws {
        let last = DatabaseFunction("last", argumentCount: 1, aggregate: Last.self)
        let custom = DatabaseFunction("custom", argumentCount: 0, aggregate: Custom.self)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            db.add(function: last)
            db.add(function: custom)
            let values: [DatabaseValue] = [
                .null, 1.databaseValue, Int64.min.databaseValue, 1.5.databaseValue, 1e100.databaseValue,
                "foo".databaseValue, "".databaseValue, "a\u{0}b".databaseValue, "Roué".databaseValue,
                Data([0, 255]).databaseValue, Data().databaseValue,
            ]
            for value in values {
                let row = try Row.fetchOne(db, sql: "SELECT last(?) AS v, typeof(last(?)) AS t", arguments: [value, value])!
                XCTAssertEqual(row["v"] as DatabaseValue, value)
                XCTAssertEqual(row["t"] as String, try String.fetchOne(db, sql: "SELECT typeof(?)", arguments: [value]))
            }
            XCTAssertEqual(try CustomValue.fetchOne(db, sql: "SELECT custom()"), CustomValue())
            XCTAssertEqual(try String.fetchOne(db, sql: "SELECT custom()"), "custom")
        }
    }

    // MARK: - Argument count

    func testFixedArgumentCounts() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            for count in 0...2 {
                db.add(function: DatabaseFunction("f\(count)", argumentCount: count, aggregate: ArgumentCount.self))
            }
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT f0()"), 0)
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT f1(NULL)"), 1)
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT f2(1, 'a')"), 2)
            for sql in ["SELECT f0(1)", "SELECT f1()", "SELECT f1(1, 2)", "SELECT f2(1)"] {
                let error = assertDatabaseError(.SQLITE_ERROR) { try db.execute(sql: sql) }
                XCTAssertTrue(error?.message?.hasPrefix("wrong number of arguments to function f") ?? false, "\(String(describing: error))")
                XCTAssertEqual(error?.sql, sql)
            }
        }
    }

    func testAnyNumberOfArguments() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            db.add(function: DatabaseFunction("f", aggregate: ArgumentCount.self))
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT f()"), 0)
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT f(1)"), 1)
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT f(1, NULL, 'a')"), 3)
        }
    }

    func testPureAndNonPureAggregatesAsSQLiteListsThem() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            db.add(function: DatabaseFunction("pureSum", argumentCount: 1, pure: true, aggregate: Sum.self))
            db.add(function: DatabaseFunction("plainSum", aggregate: Sum.self))
            let sql = "SELECT type, narg, (flags & \(SQLITE_DETERMINISTIC)) != 0 AS pure FROM pragma_function_list WHERE name = ?"
            let pure = try Row.fetchOne(db, sql: sql, arguments: ["puresum"])!
            XCTAssertEqual(pure["type"] as String, "a")
            XCTAssertEqual(pure["narg"] as Int, 1)
            XCTAssertEqual(pure["pure"] as Bool, true)
            let plain = try Row.fetchOne(db, sql: sql, arguments: ["plainsum"])!
            XCTAssertEqual(plain["type"] as String, "a")
            XCTAssertEqual(plain["narg"] as Int, -1)
            XCTAssertEqual(plain["pure"] as Bool, false)
        }
    }

    // MARK: - Aggregations

    func testOneInstancePerGroup() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            db.add(function: DatabaseFunction("mySum", argumentCount: 1, aggregate: Sum.self))
            try db.execute(
                sql: """
                    CREATE TABLE t (g TEXT, x INTEGER);
                    INSERT INTO t VALUES ('a', 1), ('b', 10), ('a', 2), ('c', NULL), ('b', 20), ('a', 3)
                    """)
            let made = Sum.census.made
            let rows = try Row.fetchAll(db, sql: "SELECT g, mySum(x) AS s FROM t GROUP BY g ORDER BY g")
            XCTAssertEqual(rows.map { $0["g"] as String }, ["a", "b", "c"])
            XCTAssertEqual(rows.map { $0["s"] as Int? }, [6, 30, nil])
            XCTAssertEqual(Sum.census.made - made, 3)
            XCTAssertEqual(Sum.census.alive, 0)

            // Two calls in one aggregation are two instances.
            let both = try Row.fetchOne(db, sql: "SELECT mySum(x) AS s, mySum(x * 2) AS d FROM t")!
            XCTAssertEqual(both["s"] as Int, 36)
            XCTAssertEqual(both["d"] as Int, 72)
            XCTAssertEqual(Sum.census.made - made, 5)

            // Each run of a statement starts afresh.
            let statement = try db.makeStatement(sql: "SELECT mySum(x) FROM t WHERE g = ?")
            XCTAssertEqual(try Int.fetchOne(statement, arguments: ["a"]), 6)
            XCTAssertEqual(try Int.fetchOne(statement, arguments: ["a"]), 6)
            XCTAssertEqual(try Int.fetchOne(statement, arguments: ["b"]), 30)
            XCTAssertEqual(Sum.census.made - made, 8)
            XCTAssertEqual(Sum.census.alive, 0)
        }
    }

    func testNoRowsFinalizeAFreshInstance() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            db.add(function: DatabaseFunction("count2", argumentCount: 1, aggregate: Count.self))
            db.add(function: DatabaseFunction("mySum", argumentCount: 1, aggregate: Sum.self))
            try db.execute(sql: "CREATE TABLE t (g, x)")
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count2(x) FROM t"), 0)
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count2(x) FROM t WHERE 0"), 0)
            let made = Sum.census.made
            let row = try XCTUnwrap(Row.fetchOne(db, sql: "SELECT mySum(x) FROM t"))
            XCTAssertTrue(row[0] as DatabaseValue == .null)
            XCTAssertEqual(Sum.census.made - made, 1)
            // A GROUP BY of no rows has no group, and makes no instance.
            XCTAssertEqual(try Row.fetchAll(db, sql: "SELECT g, mySum(x) FROM t GROUP BY g"), [])
            XCTAssertEqual(Sum.census.made - made, 1)
        }
    }

    func testQueryInterface() throws {
        let mySum = DatabaseFunction("mySum", argumentCount: 1, aggregate: Sum.self)
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            db.add(function: mySum)
            try db.execute(sql: "CREATE TABLE t (g TEXT, x INTEGER); INSERT INTO t VALUES ('a', 1), ('b', 10), ('a', 2)")
            let t = Table<Row>("t")
            XCTAssertEqual(try t.select(mySum(Column("x")), as: Int.self).fetchOne(db), 13)
            let request = t.select(mySum(Column("x") * 2), as: Int.self).group(Column("g")).order(Column("g"))
            XCTAssertEqual(try request.fetchAll(db), [6, 20])
            let sql = try request.makePreparedRequest(db, forSingleResult: false).statement.sql
            XCTAssertTrue(sql.hasPrefix(#"SELECT mySum("x" * ?) FROM "t" GROUP BY "g""#), sql)
        }
    }

    // MARK: - Errors

    /// `fail(code, message)` throws from `step`, `failLater(code, message)` from `finalize`:
    /// a `DatabaseError` of `code` and `message` (nil when NULL), or another error when
    /// `code` is NULL.
    func testErrorsFromStepAndFinalize() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            db.add(function: DatabaseFunction("fail", argumentCount: 2, aggregate: Failing.self))
            db.add(function: DatabaseFunction("failLater", argumentCount: 2, aggregate: FailingLater.self))
            for name in ["fail", "failLater"] {
                var error = assertDatabaseError(.SQLITE_ERROR) { try db.execute(sql: "SELECT \(name)(1, 'custom message')") }
                XCTAssertEqual(error?.extendedResultCode, .SQLITE_ERROR)
                XCTAssertEqual(error?.message, "custom message")
                XCTAssertEqual(error?.sql, "SELECT \(name)(1, 'custom message')")

                // A code of its own, and SQLite's message for it.
                error = assertDatabaseError(ResultCode(rawValue: 123)) { try db.execute(sql: "SELECT \(name)(123, NULL)") }
                XCTAssertEqual(error?.extendedResultCode.rawValue, 123)
                XCTAssertEqual(error?.message, "unknown error")

                error = assertDatabaseError(.SQLITE_CONSTRAINT_CHECK) {
                    try db.execute(sql: "SELECT \(name)(?, 'custom message')", arguments: [ResultCode.SQLITE_CONSTRAINT_CHECK.rawValue])
                }
                XCTAssertEqual(error?.extendedResultCode, .SQLITE_CONSTRAINT_CHECK)
                XCTAssertEqual(error?.message, "custom message")

                error = assertDatabaseError(.SQLITE_ERROR) { try db.execute(sql: "SELECT \(name)(NULL, 'custom message')") }
                XCTAssertEqual(error?.extendedResultCode, .SQLITE_ERROR)
                for part in ["CustomErrorDomain", "123", "custom message"] {
                    XCTAssertTrue(error?.message?.contains(part) ?? false, "\(String(describing: error))")
                }
            }
            // The connection goes on.
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT 1"), 1)
        }
    }

    func testNoStepNorFinalizeAfterAFailedStep() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            db.add(function: DatabaseFunction("fail", argumentCount: 2, aggregate: Failing.self))
            try db.execute(sql: "CREATE TABLE t (code, message); INSERT INTO t VALUES (0, NULL), (1, 'second'), (1, 'third')")
            let made = Failing.census.made
            let finalized = Failing.finalized.value
            let error = assertDatabaseError(.SQLITE_ERROR) { try db.execute(sql: "SELECT fail(code, message) FROM t") }
            XCTAssertEqual(error?.message, "second")
            XCTAssertEqual(Failing.census.made - made, 1)
            XCTAssertEqual(Failing.finalized.value, finalized)

            // Without an error, `finalize` runs.
            try db.execute(sql: "SELECT fail(0, NULL) FROM t")
            XCTAssertEqual(Failing.finalized.value, finalized + 1)
        }
    }

    // MARK: - Lifetime

    func testInstancesAreReleasedAfterSuccessAndErrors() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            db.add(function: DatabaseFunction("mySum", argumentCount: 1, aggregate: Sum.self))
            db.add(function: DatabaseFunction("fail", argumentCount: 2, aggregate: Failing.self))
            db.add(function: DatabaseFunction("failLater", argumentCount: 2, aggregate: FailingLater.self))
            let made = (sum: Sum.census.made, failing: Failing.census.made)
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT mySum(1)"), 1)
            XCTAssertEqual(Sum.census.made - made.sum, 1)
            XCTAssertEqual(Sum.census.alive, 0)
            assertDatabaseError(.SQLITE_ERROR) { try db.execute(sql: "SELECT fail(1, 'boo')") }
            XCTAssertEqual(Failing.census.made - made.failing, 1)
            XCTAssertEqual(Failing.census.alive, 0)
            assertDatabaseError(.SQLITE_ERROR) { try db.execute(sql: "SELECT failLater(1, 'boo')") }
            XCTAssertEqual(Failing.census.made - made.failing, 2)
            XCTAssertEqual(Failing.census.alive, 0)
        }
    }

    func testInstancesAreReleasedWhenTheStatementStopsMidway() throws {
        struct Stop: Error {}
        let stopAt3 = DatabaseFunction("stopAt3", argumentCount: 1) { values in
            if values[0] == 3.databaseValue { throw Stop() }
            return values[0]
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            db.add(function: DatabaseFunction("mySum", argumentCount: 1, aggregate: Sum.self))
            db.add(function: stopAt3)
            try db.execute(sql: "CREATE TABLE t (g, x); INSERT INTO t VALUES ('a', 1), ('a', 2), ('a', 3), ('b', 4), ('b', 5)")

            // The aggregation has stepped twice when SQLite stops the statement: SQLite
            // finalizes it, and ignores the result.
            let made = Sum.census.made
            let finalized = Sum.finalized.value
            let statement = try db.makeStatement(sql: "SELECT mySum(stopAt3(x)) FROM t WHERE x <= ?")
            assertDatabaseError(.SQLITE_ERROR) { try Int.fetchOne(statement, arguments: [5]) }
            XCTAssertEqual(Sum.census.made - made, 1)
            XCTAssertEqual(Sum.census.alive, 0)
            XCTAssertEqual(Sum.finalized.value - finalized, 1)
            // The statement runs again, with a fresh instance.
            XCTAssertEqual(try Int.fetchOne(statement, arguments: [2]), 3)
            XCTAssertEqual(Sum.census.made - made, 2)

            // The same in the second group, after the first one gave its row.
            let groups = try Row.fetchCursor(db, sql: "SELECT g, mySum(stopAt3(x - 2)) AS s FROM t GROUP BY g ORDER BY g")
            XCTAssertEqual(try groups.next()?["s"] as Int?, 0)
            XCTAssertThrowsError(try groups.next())
            XCTAssertEqual(Sum.census.made - made, 4)
            XCTAssertEqual(Sum.census.alive, 0)

            // A cursor left after its first group.
            do {
                let groups = try Row.fetchCursor(db, sql: "SELECT g, mySum(x) AS s FROM t GROUP BY g ORDER BY g")
                XCTAssertEqual(try groups.next()?["s"] as Int?, 6)
            }
            XCTAssertEqual(Sum.census.alive, 0)
            XCTAssertEqual(try Int.fetchAll(db, sql: "SELECT mySum(x) FROM t GROUP BY g ORDER BY g"), [6, 9])
        }
        XCTAssertEqual(Sum.census.alive, 0)
    }

    func testInstancesAreReleasedWhenTheConnectionCloses() throws {
        var dbQueue: DatabaseQueue? = try DatabaseQueue()
        try dbQueue!.write { db in
            db.add(function: DatabaseFunction("mySum", argumentCount: 1, aggregate: Sum.self))
            try db.execute(sql: "CREATE TABLE t (x); INSERT INTO t VALUES (1), (2)")
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT mySum(x) FROM t"), 3)
        }
        dbQueue = nil
        XCTAssertEqual(Sum.census.alive, 0)
    }

    // MARK: - Adding and removing

    func testAddingReplacingAndRemoving() throws {
        let mySum = DatabaseFunction("mySum", argumentCount: 1, aggregate: Sum.self)
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (x); INSERT INTO t VALUES (1), (2), (3)")
            assertDatabaseError(.SQLITE_ERROR) { try Int.fetchOne(db, sql: "SELECT mySum(x) FROM t") }
            db.add(function: mySum)
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT mySum(x) FROM t"), 6)

            // Names are case-insensitive; other argument counts are other functions.
            db.add(function: DatabaseFunction("MYSUM", argumentCount: 1, aggregate: Count.self))
            db.add(function: DatabaseFunction("mySum", argumentCount: 2) { _ in "scalar" })
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT mySum(x) FROM t"), 3)
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT mySum(x, x) FROM t"), ["scalar", "scalar", "scalar"])

            // A scalar function replaces an aggregate, and the other way around.
            db.add(function: DatabaseFunction("mySum", argumentCount: 1) { _ in "scalar" })
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT mySum(x) FROM t"), ["scalar", "scalar", "scalar"])
            db.add(function: mySum)
            XCTAssertEqual(try Int.fetchAll(db, sql: "SELECT mySum(x) FROM t"), [6])

            db.remove(function: mySum)
            let error = assertDatabaseError(.SQLITE_ERROR) { try Int.fetchOne(db, sql: "SELECT mySum(x) FROM t") }
            XCTAssertEqual(error?.message, "wrong number of arguments to function mySum()")
            XCTAssertEqual(try String.fetchOne(db, sql: "SELECT mySum(1, 2)"), "scalar")
            XCTAssertEqual(mySum, DatabaseFunction("MYSUM", argumentCount: 1) { _ in nil })
        }
    }

    func testAggregatesInEveryConnectionOfAPool() throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            db.add(function: DatabaseFunction("mySum", argumentCount: 1, aggregate: Sum.self))
        }
        let dbPool = try DatabasePool(path: makeTemporaryDatabasePath(self), configuration: configuration)
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE t (x); INSERT INTO t VALUES (1), (2), (3)")
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT mySum(x) FROM t"), 6)
        }
        let made = Sum.census.made
        let sums = LockedState([Int?]())
        // Readers at once, each with its own connection and instances.
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let sum = try? dbPool.read { db in
                try Int.fetchOne(db, sql: "SELECT mySum(x) FROM (SELECT x FROM t UNION ALL SELECT x FROM t)")
            }
            sums.withLock { $0.append(sum) }
        }
        XCTAssertEqual(sums.withLock { $0 }, [12, 12, 12, 12])
        XCTAssertEqual(Sum.census.made - made, 4)
        XCTAssertEqual(Sum.census.alive, 0)
    }
}

// MARK: - Aggregates of the tests

/// Counts the instances of a type that were made, and those still alive.
private final class Census: Sendable {
    private let counts = LockedState((made: 0, alive: 0))
    var made: Int { counts.withLock { $0.made } }
    var alive: Int { counts.withLock { $0.alive } }
    func enter() {
        counts.withLock {
            $0.made += 1
            $0.alive += 1
        }
    }
    func leave() { counts.withLock { $0.alive -= 1 } }
}

/// The property that counts the instance that holds it.
private final class CensusMember {
    let census: Census
    init(_ census: Census) {
        self.census = census
        census.enter()
    }
    deinit { census.leave() }
}

/// A counter, readable from any thread.
private final class Counter: Sendable {
    private let state = LockedState(0)
    var value: Int { state.withLock { $0 } }
    func increment() { state.withLock { $0 += 1 } }
}

/// The sum of its integer arguments, nil for none.
private struct Sum: DatabaseAggregate {
    static let census = Census()
    static let finalized = Counter()
    let member = CensusMember(Sum.census)
    var sum: Int?
    mutating func step(_ dbValues: [DatabaseValue]) {
        if let int = Int.fromDatabaseValue(dbValues[0]) { sum = (sum ?? 0) + int }
    }
    func finalize() -> (any DatabaseValueConvertible)? {
        Sum.finalized.increment()
        return sum
    }
}

/// The number of rows.
private struct Count: DatabaseAggregate {
    var count = 0
    mutating func step(_ dbValues: [DatabaseValue]) { count += 1 }
    func finalize() -> (any DatabaseValueConvertible)? { count }
}

/// The last value it got.
private struct Last: DatabaseAggregate {
    var last: DatabaseValue?
    mutating func step(_ dbValues: [DatabaseValue]) { last = dbValues[0] }
    func finalize() -> (any DatabaseValueConvertible)? { last }
}

/// The number of arguments of its last step.
private struct ArgumentCount: DatabaseAggregate {
    var count: Int?
    mutating func step(_ dbValues: [DatabaseValue]) { count = dbValues.count }
    func finalize() -> (any DatabaseValueConvertible)? { count }
}

private struct CustomValue: DatabaseValueConvertible, Equatable {
    var databaseValue: DatabaseValue { "custom".databaseValue }
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> CustomValue? {
        String.fromDatabaseValue(dbValue) == "custom" ? CustomValue() : nil
    }
}

private struct Custom: DatabaseAggregate {
    func step(_ dbValues: [DatabaseValue]) {}
    func finalize() -> (any DatabaseValueConvertible)? { CustomValue() }
}

/// The error of arguments `(code, message)`: none for code 0, a `DatabaseError` for
/// another code, and an `NSError` for a NULL code.
private func thrownError(_ dbValues: [DatabaseValue]) -> (any Error)? {
    let message = String.fromDatabaseValue(dbValues[1])
    guard let code = Int32.fromDatabaseValue(dbValues[0]) else {
        return NSError(domain: "CustomErrorDomain", code: 123, userInfo: [NSLocalizedDescriptionKey: message ?? ""])
    }
    if code == 0 { return nil }
    return DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
}

/// Throws the error of its arguments from `step`.
private struct Failing: DatabaseAggregate {
    static let census = Census()
    static let finalized = Counter()
    let member = CensusMember(Failing.census)
    func step(_ dbValues: [DatabaseValue]) throws {
        if let error = thrownError(dbValues) { throw error }
    }
    func finalize() -> (any DatabaseValueConvertible)? {
        Failing.finalized.increment()
        return nil
    }
}

/// Throws the error of its last arguments from `finalize`.
private struct FailingLater: DatabaseAggregate {
    let member = CensusMember(Failing.census)
    var error: (any Error)?
    mutating func step(_ dbValues: [DatabaseValue]) { error = thrownError(dbValues) }
    func finalize() throws -> (any DatabaseValueConvertible)? {
        if let error { throw error }
        return nil
    }
}
