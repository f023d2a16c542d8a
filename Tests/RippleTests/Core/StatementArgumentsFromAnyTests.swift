import Foundation
import XCTest

@testable import Ripple

/// `StatementArguments` from collections of any values (`NSArray`, `NSDictionary`), as
/// GRDB's: nil unless every value is a database value.
final class StatementArgumentsFromAnyTests: XCTestCase {
    private final class NotAValue {}

    func testArrayOfAnyValues() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE persons(name TEXT, age INT)")
            let statement = try db.makeStatement(sql: "INSERT INTO persons (name, age) VALUES (?, ?)")
            for person: [Any] in [["Arthur", 41], ["Barbara", NSNull()]] {
                try statement.execute(arguments: XCTUnwrap(StatementArguments(person)))
            }
            let rows = try Row.fetchAll(db, sql: "SELECT name, age FROM persons ORDER BY name")
            XCTAssertEqual(rows, [["name": "Arthur", "age": 41], ["name": "Barbara", "age": nil]])
        }
        XCTAssertNil(StatementArguments(["Arthur", NotAValue()] as [Any]))
        XCTAssertNil(StatementArguments((["Arthur", NotAValue()] as NSArray) as! [Any]))
    }

    func testDictionaryOfAnyValues() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE persons(name TEXT, age INT)")
            let person: [AnyHashable: Any] = ["name": "Arthur", "age": 41]
            try db.execute(sql: "INSERT INTO persons (name, age) VALUES (:name, :age)", arguments: XCTUnwrap(StatementArguments(person)))
            XCTAssertEqual(try Row.fetchOne(db, sql: "SELECT name, age FROM persons"), ["name": "Arthur", "age": 41])
        }
        XCTAssertNil(StatementArguments(["name": NotAValue()] as [AnyHashable: Any]))
        XCTAssertNil(StatementArguments([1: "Arthur"] as [AnyHashable: Any]), "names must be strings")
        // A literal of database values still makes plain arguments, not an optional.
        let plain: StatementArguments = StatementArguments(["Arthur", 41])
        XCTAssertEqual(plain, ["Arthur", 41])
    }
}
