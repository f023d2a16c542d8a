import CRippleSupport
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

    /// Rows compare the innermost access first, then walk the chain: each push and pop
    /// must leave the innermost place to the top access.
    func testTheInnermostAccessFollowsPushesAndPops() {
        let first = Identity()
        let second = Identity()
        func assertInnermost(_ expected: Identity?, line: UInt = #line) {
            XCTAssertEqual(ripple_access_innermost_connection(), expected.map(AccessChain.identity(of:)), line: line)
            XCTAssertEqual(ripple_access_innermost_is_consistent(), 1, line: line)
        }
        assertInnermost(nil)
        AccessChain.withAccess(to: first) {
            assertInnermost(first)
            AccessChain.withAccess(to: second) {
                assertInnermost(second)
                AccessChain.withAccess(to: first) {
                    assertInnermost(first)
                    XCTAssertTrue(AccessChain.holds(first))
                    XCTAssertTrue(AccessChain.holds(second), "found down the chain")
                }
                assertInnermost(second)
                XCTAssertTrue(AccessChain.holds(first), "found down the chain")
                XCTAssertTrue(AccessChain.holds(second))
            }
            assertInnermost(first)
            XCTAssertTrue(AccessChain.holds(first))
            XCTAssertFalse(AccessChain.holds(second), "the innermost place went back to the outer access")
        }
        assertInnermost(nil)
        XCTAssertFalse(AccessChain.holds(first))
        XCTAssertFalse(AccessChain.holds(second))
    }

    /// No connection, not even a null one, is held by a thread that runs no access.
    func testANullConnectionIsNeverHeld() {
        XCTAssertEqual(ripple_access_holds(nil), 0)
        AccessChain.withAccess(to: Identity()) {
            AccessChain.withAccess(to: Identity()) {
                XCTAssertEqual(ripple_access_holds(nil), 0)
            }
        }
        XCTAssertEqual(ripple_access_holds(nil), 0)
    }

    func testAThrownErrorPopsTheAccess() {
        struct Failure: Error {}
        let connection = Identity()
        XCTAssertThrowsError(try AccessChain.withAccess(to: connection) { throw Failure() })
        XCTAssertFalse(AccessChain.holds(connection))
    }
}

private final class Identity: Sendable {}
