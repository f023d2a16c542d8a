import Foundation
import XCTest

@testable import Ripple

/// As in GRDB: an optional type's `fetchOne` tells a NULL (`.some(nil)`) from no row (nil).
final class OptionalFetchOneTests: XCTestCase {
    func testNullAndNoRowAreTold() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            XCTAssertEqual(try String?.fetchOne(db, sql: "SELECT NULL"), .some(nil))
            XCTAssertEqual(try String?.fetchOne(db, sql: "SELECT 'a'"), .some("a"))
            XCTAssertEqual(try String?.fetchOne(db, sql: "SELECT 1 WHERE 0"), .none)
            XCTAssertEqual(try SQLRequest<String?>(sql: "SELECT NULL").fetchOne(db), .some(nil))
            XCTAssertEqual(try SQLRequest<String?>(sql: "SELECT 'b'").fetchOne(db), .some("b"))
            XCTAssertEqual(try SQLRequest<String?>(sql: "SELECT NULL WHERE 0").fetchOne(db), .none)
            // Non-optional types flatten both, as before.
            XCTAssertNil(try String.fetchOne(db, sql: "SELECT NULL"))
            XCTAssertNil(try String.fetchOne(db, sql: "SELECT 1 WHERE 0"))
        }
    }
}
