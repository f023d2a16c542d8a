import Dispatch
import XCTest

@testable import Ripple

final class FIFOTests: XCTestCase {
    func testElementsComeOutInOrder() {
        var fifo = FIFO<Int>()
        for i in 1...3 { fifo.append(i) }
        XCTAssertEqual(fifo.popFirst(), 1)
        fifo.append(4)
        XCTAssertEqual([fifo.popFirst(), fifo.popFirst(), fifo.popFirst(), fifo.popFirst()], [2, 3, 4, nil])
        XCTAssertTrue(fifo.isEmpty)
    }

    func testAQueueThatNeverEmptiesDoesNotGrow() {
        var fifo = FIFO<Int>()
        fifo.append(0)
        for i in 1...10_000 {
            fifo.append(i)
            XCTAssertEqual(fifo.popFirst(), i - 1)
            XCTAssertLessThanOrEqual(fifo.slotCount, 32, "taken slots are dropped")
        }
        XCTAssertEqual(fifo.count, 1)
    }

    func testATakenElementIsNotKept() {
        // Its users take elements with a lock held: the last reference to a value must go
        // with whoever took it, not with the queue when it empties.
        final class Box {}
        var fifo = FIFO<Box>()
        weak var weakFirst: Box?
        do {
            let first = Box()
            weakFirst = first
            fifo.append(first)
            fifo.append(Box())
        }
        do {
            let taken = fifo.popFirst()
            XCTAssertNotNil(taken)
        }
        XCTAssertNil(weakFirst, "the queue keeps no reference to a taken element")
        XCTAssertEqual(fifo.count, 1)
    }
}
