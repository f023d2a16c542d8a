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

    /// A clock that counts its calls, each giving the next second.
    private final class CountingClock: @unchecked Sendable {  // read and written on the connection's queue only
        var calls = 0
        func now() -> Date {
            calls += 1
            return Date(timeIntervalSince1970: TimeInterval(calls))
        }
    }

    func testACustomClockGivesEachTransactionItsDate() throws {
        let clock = CountingClock()
        var config = Configuration()
        config.transactionClock = .custom { _ in clock.now() }
        let dbQueue = try DatabaseQueue(configuration: config)
        let (first, second) = try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a)")
            return (try db.transactionDate, try db.transactionDate)
        }
        XCTAssertEqual(first, Date(timeIntervalSince1970: 1))
        XCTAssertEqual(second, first, "asked once per transaction")
        let next = try dbQueue.write { db in try db.transactionDate }
        XCTAssertEqual(next, Date(timeIntervalSince1970: 2))
        // Outside of a transaction: asked at each read.
        try dbQueue.writeWithoutTransaction { db in
            XCTAssertEqual(try db.transactionDate, Date(timeIntervalSince1970: 3))
            XCTAssertEqual(try db.transactionDate, Date(timeIntervalSince1970: 4))
        }
    }

    func testACustomClockMayUseTheDatabase() throws {
        var config = Configuration()
        config.transactionClock = .custom { db in
            let seconds = try Double.fetchOne(db, sql: "SELECT seconds FROM clock")!
            return Date(timeIntervalSince1970: seconds)
        }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE clock (seconds REAL); INSERT INTO clock VALUES (1000)")
        }
        let date = try dbQueue.write { db in
            try db.execute(sql: "UPDATE clock SET seconds = 2000")
            return try db.transactionDate
        }
        XCTAssertEqual(date, Date(timeIntervalSince1970: 2000))
    }

    func testTheErrorOfACustomClockIsThrownByTransactionDate() throws {
        struct ClockError: Error {}
        var config = Configuration()
        config.transactionClock = .custom { _ in throw ClockError() }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db in
            XCTAssertThrowsError(try db.transactionDate) { XCTAssertTrue($0 is ClockError) }
            // The transaction goes on.
            try db.execute(sql: "CREATE TABLE t (a)")
        }
        XCTAssertTrue(try dbQueue.read { db in try db.tableExists("t") })
    }

    func testTheRealTimeClockIsTheDefaultOne() throws {
        var config = Configuration()
        config.transactionClock = .realTime
        XCTAssertTrue(config.transactionClock is DefaultTransactionClock)
        XCTAssertTrue(Configuration().transactionClock is DefaultTransactionClock)
        let before = Date()
        let date = try DatabaseQueue(configuration: config).write { db in try db.transactionDate }
        XCTAssertGreaterThanOrEqual(date, before)
        XCTAssertLessThanOrEqual(date, Date())
    }
}
