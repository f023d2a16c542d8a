import CSQLite
import XCTest

@testable import Ripple

/// Scenarios run in a child process by the tests above: each one ends in a fatal error.
final class TransactionFatalErrorScenarios: XCTestCase {
    func testLeaveTransactionOpen() throws {
        guard isFatalScenario else { return }
        let dbQueue = try DatabaseQueue()
        // fatal error: A transaction has been left opened at the end of a database access
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN TRANSACTION")
        }
    }
}
