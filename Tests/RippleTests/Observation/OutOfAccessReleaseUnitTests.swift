import Dispatch
import XCTest

@testable import Ripple

/// `OutOfAccessRelease` on its own: what it is handed goes out of any database access.
final class OutOfAccessReleaseUnitTests: XCTestCase {
    /// Records, at its deinit, whether the thread ran a database access, or was on a
    /// connection's queue.
    final class Probe: @unchecked Sendable {  // `record` is thread-safe
        let record: LockedState<[Bool]>
        init(_ record: LockedState<[Bool]>) { self.record = record }
        deinit {
            let inside = AccessChain.isInsideAnyAccess || AccessContext.current != nil
            record.withLock { $0.append(inside) }
        }
    }

    func testOutOfAnyAccessTheValueGoesAtOnce() {
        let record = LockedState<[Bool]>([])
        OutOfAccessRelease.release(Probe(record))
        XCTAssertEqual(record.withLock { $0 }, [false], "released during the call")
    }

    func testInsideAnAccessTheValueGoesLaterOutOfIt() throws {
        let dbQueue = try DatabaseQueue()
        let record = LockedState<[Bool]>([])
        try dbQueue.write { _ in
            XCTAssertTrue(AccessChain.isInsideAnyAccess)
            OutOfAccessRelease.release(Probe(record))
        }
        XCTAssertFalse(AccessChain.isInsideAnyAccess)
        OutOfAccessRelease.waitForPendingReleases()
        XCTAssertEqual(record.withLock { $0 }, [false])
    }

    func testOnAConnectionsQueueOutOfItsAccessesTheValueGoesLater() throws {
        // (Released there, a deinit that used the database would wait for the queue
        // itself.) A closure that the queue's block releases after its access ended hands
        // the value over from its deinit.
        final class Carrier: @unchecked Sendable {  // `record` and `carrierRanOnQueue` are thread-safe
            let record: LockedState<[Bool]>
            let carrierRanOnQueue: LockedState<Bool?>
            init(_ record: LockedState<[Bool]>, _ carrierRanOnQueue: LockedState<Bool?>) {
                self.record = record
                self.carrierRanOnQueue = carrierRanOnQueue
            }
            deinit {
                let onQueue = !AccessChain.isInsideAnyAccess && AccessContext.current != nil
                carrierRanOnQueue.withLock { $0 = onQueue }
                OutOfAccessRelease.release(Probe(record))
            }
        }
        let dbQueue = try DatabaseQueue()
        let record = LockedState<[Bool]>([])
        let carrierRanOnQueue = LockedState<Bool?>(nil)
        // The queue waits until the test let its own reference go: the block's is the last.
        let gate = DispatchSemaphore(value: 0)
        dbQueue.asyncWriteWithoutTransaction { _ in gate.wait() }
        do {
            let carrier = Carrier(record, carrierRanOnQueue)
            dbQueue.asyncWriteWithoutTransaction { _ in _ = carrier }
        }
        gate.signal()
        dbQueue.writeWithoutTransaction { _ in }
        OutOfAccessRelease.waitForPendingReleases()
        XCTAssertEqual(carrierRanOnQueue.withLock { $0 }, true, "the carrier went on the queue, out of its access")
        XCTAssertEqual(record.withLock { $0 }, [false])
    }

    func testValuesHandedOverInsideAnAccessAreReleasedInOrder() throws {
        let dbQueue = try DatabaseQueue()
        let order = LockedState<[Int]>([])
        final class Numbered: @unchecked Sendable {  // immutable; `order` is thread-safe
            let number: Int
            let order: LockedState<[Int]>
            init(_ number: Int, _ order: LockedState<[Int]>) {
                self.number = number
                self.order = order
            }
            deinit { order.withLock { $0.append(number) } }
        }
        try dbQueue.read { _ in
            for number in 0..<100 { OutOfAccessRelease.release(Numbered(number, order)) }
        }
        OutOfAccessRelease.waitForPendingReleases()
        XCTAssertEqual(order.withLock { $0 }, Array(0..<100))
    }
}
