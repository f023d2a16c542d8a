import Dispatch
import XCTest

@testable import Ripple

final class DeliveryOrderTests: XCTestCase {
    func testElementsComeOutInOrderAndOneDeliveryAtATime() {
        var order = DeliveryOrder<Int>()
        XCTAssertTrue(order.append(1), "the first element asks for a delivery")
        XCTAssertFalse(order.append(2), "a delivery is scheduled")
        XCTAssertFalse(order.append(3))
        XCTAssertEqual(order.count, 3)
        XCTAssertEqual(order.takeAll(), [1, 2, 3])
        XCTAssertEqual(order.count, 0)
        XCTAssertFalse(order.continuesAfterDelivery(), "nothing came meanwhile: the delivery is over")
        XCTAssertFalse(order.isDraining)
        XCTAssertTrue(order.append(4), "the next element asks for another delivery")
    }

    func testElementsThatComeDuringADeliveryAskForTheNextOne() {
        var order = DeliveryOrder<Int>()
        XCTAssertTrue(order.append(1))
        XCTAssertEqual(order.takeAll(), [1])
        XCTAssertFalse(order.append(2), "the delivery under way is not over")
        XCTAssertTrue(order.continuesAfterDelivery(), "2 came meanwhile: another delivery")
        XCTAssertTrue(order.isDraining)
        XCTAssertEqual(order.takeAll(), [2])
        XCTAssertFalse(order.continuesAfterDelivery())
    }

    func testRemoveAllDropsWaitingElementsAndTheDeliveryEnds() {
        var order = DeliveryOrder<Int>()
        XCTAssertTrue(order.append(1))
        XCTAssertEqual(order.takeAll(), [1])
        XCTAssertFalse(order.append(2))
        XCTAssertEqual(order.removeAll(), [2], "what is dropped goes to the caller")
        XCTAssertEqual(order.takeAll(), [], "2 was dropped")
        XCTAssertFalse(order.continuesAfterDelivery())
        XCTAssertTrue(order.append(3))
    }

    func testTakenElementsAreNotKept() {
        // The delivery runs them with the lock unlocked: the last reference to a value
        // must go with the delivery, not with the order.
        final class Box {}
        var order = DeliveryOrder<Box>()
        weak var weakBox: Box?
        do {
            let box = Box()
            weakBox = box
            _ = order.append(box)
        }
        do {
            let taken = order.takeAll()
            XCTAssertEqual(taken.count, 1)
        }
        XCTAssertNil(weakBox, "the order keeps no reference to a taken element")
    }
}
