import Foundation
import XCTest

@testable import Ripple

/// `Date(julianDay:)`: the date of what SQLite's `julianday()` returns.
final class DateJulianDayTests: XCTestCase {
    func testJulianDaysReadAsSQLiteReadsThem() throws {
        try DatabaseQueue().read { db in
            // 00:30:00 UT on 1 January 2013 is day 2456293.520833...; SQLite reads the
            // rounded number as 00:29:59.971.
            for text in [
                "2013-01-01 00:29:59.971", "1970-01-01 00:00:00.000", "2000-02-29 12:34:56.789", "0001-01-01 00:00:00.000", "9999-12-31 23:59:59.999",
            ] {
                let julianDay = try XCTUnwrap(Double.fetchOne(db, sql: "SELECT julianday(?)", arguments: [text]))
                XCTAssertEqual(Date(julianDay: julianDay)?.databaseValue, text.databaseValue, text)
            }
            let date = try XCTUnwrap(Date(julianDay: 2_456_293.520833))
            XCTAssertEqual(date.databaseValue, "2013-01-01 00:29:59.971".databaseValue)
            // What SQLite's datetime() makes of the same number.
            XCTAssertEqual(try String.fetchOne(db, sql: "SELECT strftime('%Y-%m-%d %H:%M:%f', 2456293.520833)"), "2013-01-01 00:29:59.971")
        }
    }

    func testDaysSQLiteDoesNotHandleAreNil() {
        XCTAssertNil(Date(julianDay: -1))
        XCTAssertNil(Date(julianDay: 5_373_484.5))
        XCTAssertNil(Date(julianDay: .nan))
        XCTAssertNil(Date(julianDay: .infinity))
        XCTAssertNotNil(Date(julianDay: 0))
        XCTAssertNotNil(Date(julianDay: 5_373_484.499))
    }
}
