import Ripple
import XCTest

final class StatementArgumentsSettingTests: XCTestCase {
    func testSettableArgumentsBindAndAreKept() throws {
        try DatabaseQueue().read { db in
            let statement = try db.makeStatement(sql: "SELECT :a + :b")
            statement.arguments = ["a": 1, "b": 2]
            XCTAssertEqual(statement.arguments, ["a": 1, "b": 2])
            XCTAssertEqual(try Int.fetchOne(statement), 3)
        }
    }

    func testUncheckedArgumentsBindNullForMissingAndIgnoreExtraValues() throws {
        try DatabaseQueue().read { db in
            let statement = try db.makeStatement(sql: "SELECT ?, :name, ?")
            statement.setUncheckedArguments([1])
            XCTAssertEqual(statement.arguments, [1])
            XCTAssertEqual(try Row.fetchOne(statement), ["?": 1, ":name": nil, "?": nil])
            statement.setUncheckedArguments([1, 2, 3, 4] + ["name": "x"])
            XCTAssertEqual(try Row.fetchOne(statement), ["?": 1, ":name": "x", "?": 2])
        }
    }

    func testAppendReturnsReplacedValuesAndOperators() {
        var arguments: StatementArguments = ["a": 1, "b": 2]
        XCTAssertEqual(arguments.append(contentsOf: ["b": 3, "c": 4]), ["b": 2.databaseValue])
        XCTAssertEqual(arguments, ["a": 1, "b": 3, "c": 4])
        XCTAssertEqual(([1] as StatementArguments) &+ ["a": 2], [1] + ["a": 2])
        var positional: StatementArguments = [1]
        positional += [2]
        XCTAssertEqual(positional, [1, 2])
    }
}
