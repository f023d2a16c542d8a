import XCTest

@testable import Ripple

final class RowIDSetTests: XCTestCase {
    func testOneRowIDIsTheSameSetHoweverItWasMade() {
        let made: [RowIDSet] = [
            [1],
            RowIDSet(Set([1])),
            RowIDSet([1, 1]),
            RowIDSet([1, 2]).intersection([1, 3]),
            RowIDSet([1]).union([1]),
            RowIDSet([1, 2, 3]).intersection([1]),
        ]
        for rowIDs in made {
            XCTAssertEqual(rowIDs, [1])
            XCTAssertEqual(rowIDs.hashValue, RowIDSet([1]).hashValue)
            XCTAssertEqual(Array(rowIDs), [1])
            XCTAssertEqual(rowIDs.count, 1)
        }
    }

    func testSetOperationsAcrossOneAndMany() {
        let one: RowIDSet = [2]
        let many: RowIDSet = [1, 2, 3]
        XCTAssertEqual(one.union(many), many)
        XCTAssertEqual(many.union(one), many)
        XCTAssertEqual(Set(one.union([5])), [2, 5])
        XCTAssertEqual(one.intersection(many), one)
        XCTAssertEqual(many.intersection(one), one)
        XCTAssertTrue(one.intersection([3]).isEmpty)
        XCTAssertTrue(many.intersection([7, 8]).isEmpty)
        XCTAssertEqual(Set(many.intersection([3, 4, 1])), [1, 3])
        XCTAssertTrue(many.contains(3))
        XCTAssertFalse(one.contains(3))
        XCTAssertEqual(Set(many), [1, 2, 3])
        XCTAssertEqual(RowIDSet([]).count, 0)
        XCTAssertEqual(Array(RowIDSet([])), [])
    }

    func testRegionsOfOneRowCompareEqualWhateverTheirRowIDsCameFrom() {
        let byKey = DatabaseRegion(table: "player", rowIDs: [1])
        let restricted = DatabaseRegion(table: "player").restricting(table: "player", toRowIDs: [1, 2]).intersection(
            DatabaseRegion(table: "player", rowIDs: [1, 3]))
        XCTAssertEqual(byKey, restricted)
        XCTAssertEqual(byKey.description, "player(*)[1]")
    }
}
