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

final class ObservationBatchPacingTests: XCTestCase {
    func testAFetchAskedWhileTheReaderIsIdleStartsABatchAtOnce() {
        var pacing = ObservationBatchPacing<Int>()
        XCTAssertTrue(pacing.ask(1), "idle: the batch starts now")
        XCTAssertEqual(pacing.takeBatch(), [1])
        XCTAssertNil(pacing.batchDidEnd(duration: 1_000), "nothing asked meanwhile: idle again")
        XCTAssertFalse(pacing.isBusy)
        XCTAssertTrue(pacing.ask(2), "idle again: at once")
    }

    func testFetchesAskedDuringABatchRunTogetherAfterAPauseAsLongAsItRan() {
        var pacing = ObservationBatchPacing<Int>()
        XCTAssertTrue(pacing.ask(1))
        XCTAssertEqual(pacing.takeBatch(), [1])
        XCTAssertFalse(pacing.ask(2), "a batch runs: wait")
        XCTAssertFalse(pacing.ask(3))
        XCTAssertEqual(pacing.batchDidEnd(duration: 3_000), 3_000, "a pause as long as the batch ran")
        XCTAssertFalse(pacing.ask(4), "during the pause: wait, and join the next batch")
        XCTAssertEqual(pacing.takeBatch(), [2, 3, 4], "nothing is dropped, in order")
        XCTAssertNil(pacing.batchDidEnd(duration: 3_000))
        XCTAssertFalse(pacing.isBusy)
    }

    func testThePauseIsBounded() {
        var pacing = ObservationBatchPacing<Int>()
        XCTAssertTrue(pacing.ask(1))
        _ = pacing.takeBatch()
        XCTAssertFalse(pacing.ask(2))
        XCTAssertEqual(pacing.batchDidEnd(duration: 5_000_000_000), ObservationBatchPacing<Int>.maximumPause, "a slow batch does not hold the next one as long again")
    }
}
