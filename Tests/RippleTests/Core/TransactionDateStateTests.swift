import Foundation
import XCTest

@testable import Ripple

/// The date of a connection's current transaction, with plain values.
final class TransactionDateStateTests: XCTestCase {
    private let first = Date(timeIntervalSince1970: 1_000)
    private let second = Date(timeIntervalSince1970: 2_000)

    func testBeginTakesTheSystemDateAndCommitForgetsIt() throws {
        var state = TransactionDateState(usesSystemClock: true)
        state.transactionStatementWillStart(insideTransaction: false)
        state.transactionStatementDidRun(insideTransaction: true, now: { first })
        XCTAssertEqual(try state.date?.get(), first)
        state.transactionStatementWillStart(insideTransaction: true)
        state.transactionStatementDidRun(insideTransaction: false, now: { second })
        XCTAssertNil(state.date)
    }

    func testASavepointInsideATransactionKeepsItsDate() throws {
        var state = TransactionDateState(usesSystemClock: true)
        state.transactionStatementWillStart(insideTransaction: false)
        state.transactionStatementDidRun(insideTransaction: true, now: { first })
        state.transactionStatementWillStart(insideTransaction: true)
        state.transactionStatementDidRun(insideTransaction: true, now: { second })
        XCTAssertEqual(try state.date?.get(), first)
    }

    func testACustomClockIsAskedLater() {
        var state = TransactionDateState(usesSystemClock: false)
        state.transactionStatementWillStart(insideTransaction: false)
        state.transactionStatementDidRun(insideTransaction: true, now: { first })
        XCTAssertNil(state.date, "the database reads the custom clock at the first read")
    }
}
