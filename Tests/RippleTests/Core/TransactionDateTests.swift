import Foundation
import XCTest
@testable import Ripple

final class TransactionDateTests: XCTestCase {
    func testTheDateIsConstantInATransactionAndNewOutside() throws {
        let dbQueue = try DatabaseQueue()
        let (first, second) = try dbQueue.write { db -> (Date, Date) in
            let first = try db.transactionDate
            Thread.sleep(forTimeInterval: 0.01)
            try db.execute(sql: "CREATE TABLE t (a)")
            return (first, try db.transactionDate)
        }
        XCTAssertEqual(first, second)
        let next = try dbQueue.write { db in try db.transactionDate }
        XCTAssertGreaterThan(next, first, "each transaction has its own date")

        try dbQueue.writeWithoutTransaction { db in
            let outside = try db.transactionDate
            Thread.sleep(forTimeInterval: 0.01)
            XCTAssertGreaterThan(try db.transactionDate, outside, "outside of a transaction, the date is now")
            try db.inSavepoint {
                let start = try db.transactionDate
                Thread.sleep(forTimeInterval: 0.01)
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                XCTAssertEqual(try db.transactionDate, start)
                XCTAssertGreaterThan(start, outside)
                return .commit
            }
        }
    }

    func testTheDateIsSetWhenTheTransactionBegins() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN")
            Thread.sleep(forTimeInterval: 0.01)
            let afterBegin = Date()
            let date = try db.transactionDate
            try db.execute(sql: "COMMIT")
            XCTAssertLessThan(date, afterBegin, "set by BEGIN, not by the first read")
        }
    }
}
