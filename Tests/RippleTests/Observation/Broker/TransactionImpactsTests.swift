import XCTest

@testable import Ripple

/// What a transaction did to the observers' entries, with plain values.
final class TransactionImpactsTests: XCTestCase {
    func testTouchedEntriesComeOutInRegistrationOrderOnceAtTheEnd() {
        var impacts = TransactionImpacts()
        let first = ObserverEntry.forTest(id: 1)
        let second = ObserverEntry.forTest(id: 2)
        impacts.markImpacted(second)
        impacts.markImpacted(first)
        impacts.markImpacted(second)
        XCTAssertTrue(first.hasTransactionImpact)
        let ids = impacts.end { $0.map(\.id) }
        XCTAssertEqual(ids, [1, 2])
        XCTAssertTrue(impacts.impactedEntries.isEmpty)
        XCTAssertEqual(impacts.end { $0.count }, 0)
    }

    func testEachEndStartsANewEpoch() {
        var impacts = TransactionImpacts()
        XCTAssertEqual(impacts.epoch, 0)
        impacts.end { _ in }
        impacts.end { _ in }
        XCTAssertEqual(impacts.epoch, 2)
    }

    func testStoppedEntriesResumeAtTheEnd() {
        var impacts = TransactionImpacts()
        let entry = ObserverEntry.forTest(id: 1)
        impacts.stop(entry)
        impacts.stop(entry)
        XCTAssertTrue(entry.isStopped)
        impacts.end { _ in }
        XCTAssertFalse(entry.isStopped)
    }
}
