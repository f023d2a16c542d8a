import Foundation
import XCTest

@testable import Ripple

/// A cursor whose step failed keeps throwing that error: it never ends as if it had read
/// the last row, and it does not run its statement again.
final class CursorFailureTests: XCTestCase {
    struct Item: FetchableRecord, Decodable {
        var value: Int
    }

    private func makeDatabase() throws -> (DatabaseQueue, Counter) {
        let counter = Counter()
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            // Fails on its third call.
            db.add(
                function: DatabaseFunction("failsAtThree", argumentCount: 1, pure: false) { values in
                    if counter.increment() == 3 { throw DatabaseError(message: "failed at three") }
                    return values[0]
                })
        }
        return (try DatabaseQueue(configuration: configuration), counter)
    }

    final class Counter: @unchecked Sendable {  // used on the database's queue only
        private var count = 0
        func increment() -> Int {
            count += 1
            return count
        }
        func reset() { count = 0 }
    }

    private let sql = "SELECT failsAtThree(value) AS value FROM (SELECT 1 AS value UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4)"

    func testEveryCursorKeepsFailing() throws {
        let (dbQueue, counter) = try makeDatabase()
        try dbQueue.read { db in
            func check<C: Cursor>(_ cursor: C, _ name: String) {
                counter.reset()
                XCTAssertNoThrow(try cursor.next(), name)
                XCTAssertNoThrow(try cursor.next(), name)
                for _ in 0..<2 {
                    XCTAssertThrowsError(try cursor.next(), name) { error in
                        XCTAssertEqual((error as? DatabaseError)?.message, "failed at three", name)
                    }
                }
            }
            check(try Row.fetchCursor(db, sql: sql), "rows")
            check(try Int.fetchCursor(db, sql: sql), "fast values")
            check(try DatabaseValue.fetchCursor(db, sql: sql), "values")
            check(try Item.fetchCursor(db, sql: sql), "records")
            check(try Optional<Int>.fetchCursor(db, sql: sql), "optional values")
        }
    }
}
