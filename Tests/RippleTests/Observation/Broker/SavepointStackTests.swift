import XCTest

@testable import Ripple

/// What waits for savepoints to be released, with plain values.
final class SavepointStackTests: XCTestCase {
    private func ids(_ items: [SavepointStack.Item]) -> [Int] {
        items.map { item in
            switch item {
            case .impact(let entry): return entry.id
            case .didChange(_, let entry): return entry.id
            case .willChange(_, let entry): return entry.id
            }
        }
    }

    func testReleasingTheLastSavepointHandsOutEverythingInOrder() {
        var stack = SavepointStack()
        stack.begin("outer")
        stack.append(.impact(.forTest(id: 1)))
        stack.begin("inner")
        stack.append(.impact(.forTest(id: 2)))
        XCTAssertEqual(stack.depth, 2)
        XCTAssertEqual(ids(stack.release("inner")), [], "the outer savepoint keeps them")
        XCTAssertEqual(ids(stack.release("OUTER")), [1, 2], "names are case-insensitive")
        XCTAssertTrue(stack.isEmpty)
    }

    func testRollingBackDropsWhatHappenedSinceAndKeepsTheSavepointOpen() {
        var stack = SavepointStack()
        stack.begin("a")
        stack.append(.impact(.forTest(id: 1)))
        stack.begin("b")
        stack.append(.impact(.forTest(id: 2)))
        stack.rollback(to: "a")
        XCTAssertEqual(stack.depth, 1, "b is gone, a stays open")
        stack.append(.impact(.forTest(id: 3)))
        XCTAssertEqual(ids(stack.release("a")), [3])
    }

    func testReleasingASavepointReleasesThoseAboveIt() {
        var stack = SavepointStack()
        stack.begin("a")
        stack.begin("b")
        stack.append(.impact(.forTest(id: 1)))
        stack.begin("c")
        stack.append(.impact(.forTest(id: 2)))
        XCTAssertEqual(ids(stack.release("a")), [1, 2])
        XCTAssertTrue(stack.isEmpty)
    }

    func testTheMostRecentSavepointOfANameIsReleased() {
        var stack = SavepointStack()
        stack.begin("s")
        stack.append(.impact(.forTest(id: 1)))
        stack.begin("s")
        stack.append(.impact(.forTest(id: 2)))
        XCTAssertEqual(ids(stack.release("s")), [])
        XCTAssertEqual(stack.depth, 1)
        XCTAssertEqual(ids(stack.release("s")), [1, 2])
    }

    func testAnUnknownNameChangesNothing() {
        var stack = SavepointStack()
        stack.begin("a")
        stack.append(.impact(.forTest(id: 1)))
        XCTAssertEqual(ids(stack.release("b")), [])
        stack.rollback(to: "b")
        XCTAssertEqual(stack.depth, 1)
        XCTAssertEqual(ids(stack.removeAll()), [1])
        XCTAssertTrue(stack.isEmpty)
    }
}
