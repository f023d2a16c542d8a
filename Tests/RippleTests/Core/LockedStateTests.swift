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
