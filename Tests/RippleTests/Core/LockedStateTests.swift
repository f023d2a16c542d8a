import Dispatch
import XCTest
@testable import Ripple

final class LockedStateTests: XCTestCase {
    func testCopiesShareTheValueAndTheLockKeepsItConsistent() {
        let state = LockedState(0)
        let copy = state
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { copy.withLock { $0 += 1 } }
        }
        XCTAssertEqual(state.withLock { $0 }, 80_000)
    }

    func testTheValueIsReleasedWithTheState() {
        final class Witness {}
        weak var witness: Witness?
        do {
            let object = Witness()
            witness = object
            let state = LockedState([object])
            XCTAssertEqual(state.withLock { $0.count }, 1)
        }
        XCTAssertNil(witness, "the value was destroyed once, with the state")
    }

    func testACancellationIsSharedByItsCopiesAndSetOnce() {
        let cancellation = Cancellation()
        let copy = cancellation
        XCTAssertFalse(copy.isCancelled)
        XCTAssertTrue(cancellation.cancel())
        XCTAssertTrue(copy.isCancelled)
        XCTAssertFalse(copy.cancel(), "already set")
    }
}

final class DeliveryOrderTests: XCTestCase {
    func testElementsComeOutInOrderAndOneDeliveryAtATime() {
        var order = DeliveryOrder<Int>()
        XCTAssertTrue(order.append(1), "the first element asks for a delivery")
        XCTAssertFalse(order.append(2), "a delivery is scheduled")
        XCTAssertFalse(order.append(3))
        var delivered: [Int] = []
        while let element = order.next() { delivered.append(element) }
        XCTAssertEqual(delivered, [1, 2, 3])
        XCTAssertFalse(order.isDraining, "the delivery ended when it found nothing left")
        XCTAssertTrue(order.append(4), "the delivery ended: the next element asks for another one")
        XCTAssertEqual(order.next(), 4)
        XCTAssertNil(order.next())
    }

    func testRemoveAllDropsWaitingElementsAndTheDeliveryEndsAtItsNextStep() {
        var order = DeliveryOrder<Int>()
        XCTAssertTrue(order.append(1))
        XCTAssertFalse(order.append(2))
        XCTAssertEqual(order.next(), 1)
        order.removeAll()
        XCTAssertTrue(order.isDraining, "the delivery under way goes on until its next step")
        XCTAssertNil(order.next(), "2 was dropped")
        XCTAssertFalse(order.isDraining)
        XCTAssertTrue(order.append(3))
    }
}
