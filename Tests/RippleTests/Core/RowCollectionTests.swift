import Ripple
import XCTest

final class RowCollectionTests: XCTestCase {
    func testRowIsARandomAccessCollectionOfPairs() {
        let row: Row = ["a": 1, "b": nil, "c": "x"]
        XCTAssertEqual(row.distance(from: row.startIndex, to: row.endIndex), 3)
        let index = row.firstIndex { $0.0 == "b" }!
        XCTAssertEqual(row.distance(from: row.startIndex, to: index), 1)
        XCTAssertEqual(row[index].1, .null)
        XCTAssertEqual(row.first?.0, "a")
        XCTAssertEqual(row.reversed().map(\.0), ["c", "b", "a"])
        XCTAssertFalse(row.isEmpty)
        XCTAssertTrue(Row().isEmpty)
    }

    func testCoalesceReturnsTheFirstNonNullValue() {
        let row: Row = ["nickname": nil, "name": "Arthur", "other": "Barbara"]
        XCTAssertEqual(row.coalesce(["nickname", "name", "other"]) as String?, "Arthur")
        XCTAssertEqual(row.coalesce([Column("nickname"), Column("other")]) as String?, "Barbara")
        XCTAssertNil(row.coalesce(["nickname", "missing"]) as String?)
    }

    func testDebugDescriptionShowsUnadaptedRowAndScopes() throws {
        let plain: Row = ["a": 1]
        XCTAssertEqual(plain.debugDescription, "[a:1]")
        try DatabaseQueue().read { db in
            let adapter = SuffixRowAdapter(fromIndex: 1).addingScopes(["first": RangeRowAdapter(0..<1)])
            let row = try Row.fetchOne(db, sql: "SELECT 1 AS a, 2 AS b", adapter: adapter)!
            XCTAssertEqual(
                row.debugDescription,
                """
                ▿ [b:2]
                  unadapted: [a:1 b:2]
                  - first: [a:1]
                """)
        }
    }
}
