import XCTest

@testable import Ripple

/// The queue of transaction-end callbacks, with plain values.
final class NotificationRoundTests: XCTestCase {
    func testCallbacksComeOutInOrderOnce() {
        var round = NotificationRound()
        XCTAssertTrue(round.isEmpty)
        round.enqueue(.forTest(id: 1), .didCommit(impacted: true))
        round.enqueue(.forTest(id: 2), .didRollback)
        XCTAssertFalse(round.isEmpty)
        let first = round.next()
        XCTAssertEqual(first?.entry.id, 1)
        guard case .didCommit(impacted: true)? = first?.action else { return XCTFail("expected didCommit") }
        let second = round.next()
        XCTAssertEqual(second?.entry.id, 2)
        guard case .didRollback? = second?.action else { return XCTFail("expected didRollback") }
        XCTAssertNil(round.next())
        XCTAssertTrue(round.isEmpty)
    }

    func testARoundEnqueuedWhileOneIsDeliveredFollowsIt() {
        var round = NotificationRound()
        round.enqueue(.forTest(id: 1), .didRollback)
        round.enqueue(.forTest(id: 2), .didRollback)
        XCTAssertEqual(round.next()?.entry.id, 1)
        // A callback's statement ends a transaction: its round joins what remains.
        round.enqueue(.forTest(id: 3), .didCommit(impacted: false))
        XCTAssertEqual(round.next()?.entry.id, 2)
        XCTAssertEqual(round.next()?.entry.id, 3)
        XCTAssertNil(round.next())
    }

    func testAnEmptiedRoundStartsAfresh() {
        var round = NotificationRound()
        round.enqueue(.forTest(id: 1), .didRollback)
        XCTAssertEqual(round.next()?.entry.id, 1)
        round.enqueue(.forTest(id: 2), .didRollback)
        XCTAssertEqual(round.next()?.entry.id, 2)
        XCTAssertNil(round.next())
    }
}
