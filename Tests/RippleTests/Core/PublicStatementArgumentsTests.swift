import Ripple
import XCTest

/// Arguments stay out of descriptions unless the configuration makes them public.
final class PublicStatementArgumentsTests: XCTestCase {
    private func failingInsert(_ configuration: Configuration) throws -> DatabaseError {
        let dbQueue = try DatabaseQueue(configuration: configuration)
        return try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a UNIQUE); INSERT INTO t VALUES ('secret')")
            do {
                try db.execute(sql: "INSERT INTO t (a) VALUES (?)", arguments: ["secret"])
                XCTFail("expected an error")
                return DatabaseError()
            } catch let error as DatabaseError {
                return error
            }
        }
    }

    func testErrorDescriptionsHideArgumentsByDefault() throws {
        let error = try failingInsert(Configuration())
        XCTAssertEqual(
            error.description, "SQLite error 19: UNIQUE constraint failed: t.a - while executing `INSERT INTO t (a) VALUES (?)`",
            "the primary code, no arguments")
        XCTAssertEqual(
            error.expandedDescription,
            #"SQLite error 19: UNIQUE constraint failed: t.a - while executing `INSERT INTO t (a) VALUES (?)` with arguments ["secret"]"#)
        XCTAssertEqual(error.arguments, ["secret"])
        XCTAssertEqual(error.extendedResultCode, .SQLITE_CONSTRAINT_UNIQUE)
    }

    func testPublicStatementArgumentsShowsThem() throws {
        var configuration = Configuration()
        configuration.publicStatementArguments = true
        XCTAssertTrue(try failingInsert(configuration).description.hasSuffix(#"with arguments ["secret"]"#))
    }

    func testTracedStatementsShowValuesOnlyInTheirExpandedDescription() throws {
        for isPublic in [false, true] {
            var configuration = Configuration()
            configuration.publicStatementArguments = isPublic
            let dbQueue = try DatabaseQueue(configuration: configuration)
            try dbQueue.inDatabase { db in
                try db.execute(sql: "CREATE TABLE t (a)")
                var descriptions: [String] = []
                var expanded: [String] = []
                db.trace { event in
                    descriptions.append(event.description)
                    expanded.append(event.expandedDescription)
                }
                try db.execute(sql: "INSERT INTO t (a) VALUES (?)", arguments: [1])
                db.trace(options: [])
                try db.execute(sql: "INSERT INTO t (a) VALUES (2)")
                XCTAssertEqual(descriptions, [isPublic ? "INSERT INTO t (a) VALUES (1)" : "INSERT INTO t (a) VALUES (?)"])
                XCTAssertEqual(expanded, ["INSERT INTO t (a) VALUES (1)"], "empty options stop the trace")
            }
        }
    }
}
