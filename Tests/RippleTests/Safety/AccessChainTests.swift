import Foundation
import XCTest
@testable import Ripple

/// The chain of accesses a thread runs: the unsafe part of reentrance and confinement checks.
final class AccessChainTests: XCTestCase {
    func testAnAccessIsHeldWhileItRunsOnItsThreadOnly() {
        let first = Identity()
        let second = Identity()
        XCTAssertFalse(AccessChain.holds(first))
        AccessChain.withAccess(to: first) {
            XCTAssertTrue(AccessChain.holds(first))
            XCTAssertFalse(AccessChain.holds(second))
            AccessChain.withAccess(to: second) {
                XCTAssertTrue(AccessChain.holds(first), "outer accesses stay held")
                XCTAssertTrue(AccessChain.holds(second))
            }
            XCTAssertFalse(AccessChain.holds(second))
            let heldElsewhere = LockedCounter()
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                if AccessChain.holds(first) { heldElsewhere.increment() }
                done.signal()
            }
            done.wait()
            XCTAssertEqual(heldElsewhere.value, 0, "another thread does not hold it")
        }
        XCTAssertFalse(AccessChain.holds(first))
    }

    /// Rows compare the innermost access first, then walk the chain: each pop must give
    /// the innermost place back to the access around it.
    func testTheInnermostAccessFollowsPushesAndPops() {
        let first = Identity()
        let second = Identity()
        AccessChain.withAccess(to: first) {
            AccessChain.withAccess(to: second) {
                AccessChain.withAccess(to: first) {
                    XCTAssertTrue(AccessChain.holds(first))
                    XCTAssertTrue(AccessChain.holds(second), "found down the chain")
                }
                XCTAssertTrue(AccessChain.holds(first), "found down the chain")
                XCTAssertTrue(AccessChain.holds(second))
            }
            XCTAssertTrue(AccessChain.holds(first))
            XCTAssertFalse(AccessChain.holds(second), "the innermost place went back to the outer access")
        }
        XCTAssertFalse(AccessChain.holds(first))
        XCTAssertFalse(AccessChain.holds(second))
    }

    func testAThrownErrorPopsTheAccess() {
        struct Failure: Error {}
        let connection = Identity()
        XCTAssertThrowsError(try AccessChain.withAccess(to: connection) { throw Failure() })
        XCTAssertFalse(AccessChain.holds(connection))
    }
}

private final class Identity: Sendable {}
