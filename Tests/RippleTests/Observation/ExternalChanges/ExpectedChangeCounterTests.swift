import XCTest

@testable import Ripple

/// The change counter a rollback-journal writer expects: its own commits are never told as
/// another connection's, and what is uncertain is told rather than missed.
final class ExpectedChangeCounterTests: XCTestCase {
    func testOwnCommitsAreNotOtherConnectionsCommits() {
        var counter = ExpectedChangeCounter()
        counter.reset(to: 10, pagesWritten: 100)
        // A commit that wrote pages adds one.
        counter.commitWillHappen(before: 10, pagesWritten: 100, isExact: true)
        counter.commitDidHappen(pagesWritten: 103)
        XCTAssertEqual(counter.value, 11)
        XCTAssertEqual(counter.ownCommits, [10])
        // A commit that wrote nothing adds nothing.
        counter.commitWillHappen(before: 11, pagesWritten: 103, isExact: true)
        counter.commitDidHappen(pagesWritten: 103)
        XCTAssertEqual(counter.value, 11)
        XCTAssertFalse(counter.check(counter: 11, pagesWritten: 103))
        // Then another connection commits.
        XCTAssertTrue(counter.check(counter: 12, pagesWritten: 103))
        XCTAssertFalse(counter.check(counter: 12, pagesWritten: 103))
    }

    func testAnotherCommitBeforeAnOwnOneIsSeen() {
        var counter = ExpectedChangeCounter()
        counter.reset(to: 10, pagesWritten: 0)
        // Another connection committed (11) before this one's transaction (12).
        counter.commitWillHappen(before: 11, pagesWritten: 0, isExact: true)
        counter.commitDidHappen(pagesWritten: 2)
        XCTAssertEqual(counter.value, 12)
        XCTAssertTrue(counter.check(counter: 12, pagesWritten: 2))
    }

    func testUncertainCommitsCountLow() {
        var counter = ExpectedChangeCounter()
        counter.reset(to: 10, pagesWritten: 0)
        // The transaction spilled pages before its commit: how much it added is unknown.
        counter.commitWillHappen(before: 10, pagesWritten: 5, isExact: true)
        counter.commitDidHappen(pagesWritten: 9)
        XCTAssertEqual(counter.value, 10)
        XCTAssertTrue(counter.check(counter: 12, pagesWritten: 9), "told rather than missed")
        // A temporary or attached database written too.
        counter.commitWillHappen(before: 12, pagesWritten: 9, isExact: false)
        counter.commitDidHappen(pagesWritten: 11)
        XCTAssertEqual(counter.value, 12)
        XCTAssertTrue(counter.ownCommits.isEmpty)
        // An unreadable counter.
        counter.commitWillHappen(before: nil, pagesWritten: 11, isExact: true)
        counter.commitDidHappen(pagesWritten: 12)
        XCTAssertNil(counter.value)
        XCTAssertTrue(counter.check(counter: 13, pagesWritten: 12))
    }

    func testRollbacksAndUnsettledCommits() {
        var counter = ExpectedChangeCounter()
        counter.reset(to: 10, pagesWritten: 0)
        // A commit vetoed or failed, then rolled back: nothing moved.
        counter.commitWillHappen(before: 10, pagesWritten: 0, isExact: true)
        counter.transactionDidRollBack(pagesWritten: 4)
        XCTAssertEqual(counter.value, 10)
        XCTAssertFalse(counter.check(counter: 10, pagesWritten: 4))
        // A commit whose end was not told is settled by the check.
        counter.commitWillHappen(before: 10, pagesWritten: 4, isExact: true)
        XCTAssertFalse(counter.check(counter: 11, pagesWritten: 6))
        // ... or, counting low, by the next commit.
        counter.commitWillHappen(before: 11, pagesWritten: 6, isExact: true)
        counter.commitWillHappen(before: 12, pagesWritten: 8, isExact: true)
        counter.commitDidHappen(pagesWritten: 10)
        XCTAssertEqual(counter.value, 13)
        XCTAssertTrue(counter.check(counter: 13, pagesWritten: 10), "the unsettled commit was counted low")
    }

    func testTheCounterWrapsAround() {
        var counter = ExpectedChangeCounter()
        counter.reset(to: .max, pagesWritten: 0)
        counter.commitWillHappen(before: .max, pagesWritten: 0, isExact: true)
        counter.commitDidHappen(pagesWritten: 1)
        XCTAssertEqual(counter.value, 0)
        XCTAssertFalse(counter.check(counter: 0, pagesWritten: 1))
    }
}
