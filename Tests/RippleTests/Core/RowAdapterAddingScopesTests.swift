import Ripple
import XCTest

final class RowAdapterAddingScopesTests: XCTestCase {
    func testAScopeWithoutColumnsHoldsTheValuesOfItsScopes() throws {
        // As GRDB: `containsNonNullValue` looks in the scopes too, so that an optional
        // property decoded from a scope with an empty base exists when its scopes have values.
        struct Left: Decodable { var v: Int }
        struct Right: Decodable { var w: Int }
        struct Pair: Decodable {
            var left: Left?
            var right: Right?
        }
        struct Model: Decodable, FetchableRecord {
            var pair: Pair?
        }
        let adapter = ScopeAdapter([
            "pair": ScopeAdapter(base: EmptyRowAdapter(), scopes: ["left": RangeRowAdapter(0..<1), "right": RangeRowAdapter(1..<2)])
        ])
        try DatabaseQueue().read { db in
            let row = try XCTUnwrap(Row.fetchOne(db, sql: "SELECT 1 AS v, NULL AS w", adapter: adapter))
            XCTAssertTrue(try XCTUnwrap(row.scopes["pair"]).containsNonNullValue)
            let model = try Model.fetchOne(db, sql: "SELECT 1 AS v, NULL AS w", adapter: adapter)
            XCTAssertEqual(model?.pair?.left?.v, 1)
            XCTAssertNil(model?.pair?.right)
            XCTAssertNil(try Model.fetchOne(db, sql: "SELECT NULL AS v, NULL AS w", adapter: adapter)?.pair)
        }
    }

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
