import Ripple
import XCTest

final class RowAdapterAddingScopesTests: XCTestCase {
    func testAddedScopesReplaceThoseOfTheSameName() throws {
        try DatabaseQueue().read { db in
            let adapter = ScopeAdapter(["x": RangeRowAdapter(0..<1), "y": RangeRowAdapter(1..<2)])
                .addingScopes(["y": RangeRowAdapter(2..<3)])
            let row = try Row.fetchOne(db, sql: "SELECT 1 AS a, 2 AS b, 3 AS c", adapter: adapter)!
            XCTAssertEqual(row.scopes["x"], ["a": 1])
            XCTAssertEqual(row.scopes["y"], ["c": 3])
            XCTAssertEqual(row.unscoped, ["a": 1, "b": 2, "c": 3])
        }
    }

    func testNoScopesKeepsTheAdapter() throws {
        try DatabaseQueue().read { db in
            let adapter = SuffixRowAdapter(fromIndex: 1).addingScopes([:])
            XCTAssertTrue(adapter is SuffixRowAdapter)
            XCTAssertEqual(try Row.fetchOne(db, sql: "SELECT 1 AS a, 2 AS b", adapter: adapter), ["b": 2])
        }
    }
}
