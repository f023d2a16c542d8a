import Foundation
import XCTest

@testable import Ripple

/// The conversions types get with no code: raw values and Codable.
final class DatabaseValueConvertibleDefaultsTests: XCTestCase {
    enum Color: String, DatabaseValueConvertible { case red, green }
    enum Level: Int, Codable, DatabaseValueConvertible { case low = 1, high = 2 }
    struct Point: Codable, DatabaseValueConvertible, Equatable {
        var x: Int
        var y: Int
    }
    struct Email: Codable, DatabaseValueConvertible, Equatable {
        var address: String
        init(_ address: String) { self.address = address }
        init(from decoder: any Decoder) throws { address = try decoder.singleValueContainer().decode(String.self) }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(address)
        }
    }
    struct Contact: Codable, DatabaseValueConvertible, Equatable {
        var email: Email
        var level: Level
    }

    func testRawValues() throws {
        XCTAssertEqual(Color.red.databaseValue, "red".databaseValue)
        XCTAssertEqual(Color.fromDatabaseValue("green".databaseValue), .green)
        XCTAssertNil(Color.fromDatabaseValue("blue".databaseValue))
        XCTAssertEqual(Level.high.databaseValue, 2.databaseValue, "raw value, not JSON")
        XCTAssertEqual(Level.fromDatabaseValue(1.databaseValue), .low)
    }

    func testCodableValues() throws {
        XCTAssertEqual(Point(x: 1, y: 2).databaseValue, #"{"x":1,"y":2}"#.databaseValue)
        XCTAssertEqual(Point.fromDatabaseValue(#"{"y":4,"x":3}"#.databaseValue), Point(x: 3, y: 4))
        XCTAssertEqual(Point.fromDatabaseValue(DatabaseValue(storage: .blob(Data(#"{"x":5,"y":6}"#.utf8)))), Point(x: 5, y: 6))
        XCTAssertNil(Point.fromDatabaseValue("not json".databaseValue))
        XCTAssertEqual(Email("a@b.c").databaseValue, "a@b.c".databaseValue, "a single value stores itself")
        XCTAssertEqual(Email.fromDatabaseValue("a@b.c".databaseValue), Email("a@b.c"))
        let contact = Contact(email: Email("x@y.z"), level: .high)
        XCTAssertEqual(contact.databaseValue, #"{"email":"x@y.z","level":2}"#.databaseValue)
        XCTAssertEqual(Contact.fromDatabaseValue(contact.databaseValue), contact)
    }

    func testThroughTheDatabase() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (color TEXT, point TEXT, email TEXT)")
            try db.execute(sql: "INSERT INTO t VALUES (?, ?, ?)", arguments: [Color.green, Point(x: 1, y: 2), Email("a@b.c")])
            XCTAssertEqual(try Color.fetchOne(db, sql: "SELECT color FROM t"), .green)
            XCTAssertEqual(try Point.fetchOne(db, sql: "SELECT point FROM t"), Point(x: 1, y: 2))
            let row = try XCTUnwrap(Row.fetchOne(db, sql: "SELECT * FROM t"))
            XCTAssertEqual(row["email"] as Email, Email("a@b.c"))
            XCTAssertThrowsError(try Color.fetchAll(db, sql: "SELECT 'blue'")) { error in
                XCTAssertEqual((error as? DatabaseError)?.resultCode, .SQLITE_MISMATCH)
            }
        }
    }

    func testFoundationReferenceTypes() throws {
        XCTAssertEqual(NSNumber(value: 3).databaseValue, 3.databaseValue)
        XCTAssertEqual(NSNumber(value: 1.5).databaseValue, 1.5.databaseValue)
        XCTAssertEqual(NSNumber(value: Int64.max).databaseValue, Int64.max.databaseValue, "no precision lost")
        // The storage follows what the number was made from, as in GRDB.
        XCTAssertEqual(NSNumber(value: Float(3)).databaseValue, 3.0.databaseValue)
        XCTAssertEqual(NSNumber(value: true).databaseValue, 1.databaseValue)
        XCTAssertEqual(NSNumber(value: UInt64(Int64.max)).databaseValue, Int64.max.databaseValue)
        XCTAssertEqual(NSNumber(value: UInt64.max).databaseValue, Double(UInt64.max).databaseValue)
        XCTAssertEqual(NSDecimalNumber(string: "9223372036854775807").databaseValue, Int64.max.databaseValue)
        XCTAssertEqual(NSDecimalNumber(string: "9223372036854775806.5").databaseValue, 9223372036854775806.5.databaseValue)
        XCTAssertEqual(NSDecimalNumber(string: "-3").databaseValue, (-3).databaseValue)
        XCTAssertEqual(NSNumber.fromDatabaseValue(2.databaseValue), NSNumber(value: 2))
        // Text that reads as a decimal number, as GRDB reads it.
        XCTAssertEqual(NSNumber.fromDatabaseValue("2.5".databaseValue), NSDecimalNumber(string: "2.5"))
        XCTAssertNil(NSNumber.fromDatabaseValue("two".databaseValue))
        XCTAssertNil(NSNumber.fromDatabaseValue(Data([1]).databaseValue))
        // NSDecimalNumber gets decimal numbers, from integers and doubles too.
        XCTAssertEqual(NSDecimalNumber.fromDatabaseValue(2.databaseValue), NSDecimalNumber(value: 2))
        XCTAssertEqual(NSDecimalNumber.fromDatabaseValue(0.5.databaseValue), NSDecimalNumber(value: 0.5))
        XCTAssertEqual(NSDecimalNumber.fromDatabaseValue("-12.25".databaseValue), NSDecimalNumber(string: "-12.25"))
        try DatabaseQueue().read { db in
            XCTAssertEqual(try NSDecimalNumber.fetchOne(db, sql: "SELECT 42"), NSDecimalNumber(value: 42))
        }
        XCTAssertEqual(NSNull().databaseValue, .null)
        XCTAssertNil(NSNull.fromDatabaseValue(.null))
        XCTAssertNil(NSNull.fromDatabaseValue(1.databaseValue))
        let date = Date(timeIntervalSinceReferenceDate: 1_000_000)
        XCTAssertEqual(NSDate(timeIntervalSinceReferenceDate: 1_000_000).databaseValue, date.databaseValue)
        try DatabaseQueue().read { db in
            let fetched = try NSDate.fetchOne(db, sql: "SELECT ?", arguments: [date])
            XCTAssertEqual(fetched.map { $0 as Date }, date)
            XCTAssertEqual(try NSNumber.fetchAll(db, sql: "SELECT 1 UNION ALL SELECT 2.5"), [NSNumber(value: 1), NSNumber(value: 2.5)])
        }
    }

    /// `fetchOne` gives what the type makes of the first value, NULL included, as in GRDB.
    func testNSURLIsStoredAsURLIs() throws {
        let url = NSURL(string: "https://github.com/groue/GRDB.swift")!
        XCTAssertEqual(url.databaseValue, "https://github.com/groue/GRDB.swift".databaseValue)
        XCTAssertEqual(NSURL.fromDatabaseValue("bar".data(using: .utf8)!.databaseValue)?.absoluteString, "bar")
        XCTAssertNil(NSURL.fromDatabaseValue(.null))
        XCTAssertNil(NSURL.fromDatabaseValue(1.databaseValue))
        let fetched = try DatabaseQueue().read { db in try NSURL.fetchOne(db, sql: "SELECT ?", arguments: [url]) }
        XCTAssertEqual(fetched, url)
    }

    func testNSUUIDIsStoredAsUUIDIs() throws {
        let uuid = UUID(uuidString: "56E7D8D3-E9E4-48B6-968E-8D102833AF00")!
        let nsUUID = NSUUID(uuidString: uuid.uuidString)!
        XCTAssertEqual(nsUUID.databaseValue, uuid.databaseValue)
        XCTAssertEqual(NSUUID.fromDatabaseValue(uuid.databaseValue), nsUUID)
        XCTAssertEqual(NSUUID.fromDatabaseValue(uuid.uuidString.databaseValue), nsUUID)
        XCTAssertNil(NSUUID.fromDatabaseValue(.null))
        XCTAssertNil(NSUUID.fromDatabaseValue(1.databaseValue))
        let fetched = try DatabaseQueue().read { db in try NSUUID.fetchOne(db, sql: "SELECT ?", arguments: [nsUUID]) }
        XCTAssertEqual(fetched, nsUUID)
    }

    func testFetchOneOfNull() throws {
        try DatabaseQueue().read { db in
            XCTAssertEqual(try DatabaseValue.fetchOne(db, sql: "SELECT NULL"), .null)
            XCTAssertNil(try DatabaseValue.fetchOne(db, sql: "SELECT 1 WHERE 0"), "no row")
            XCTAssertNil(try Int.fetchOne(db, sql: "SELECT NULL"))
            XCTAssertNil(try Point.fetchOne(db, sql: "SELECT NULL"))
            XCTAssertEqual(try Point.fetchOne(db, sql: #"SELECT '{"x":1,"y":1}'"#), Point(x: 1, y: 1))
            XCTAssertThrowsError(try Point.fetchOne(db, sql: "SELECT 'bad'")) { error in
                XCTAssertEqual((error as? DatabaseError)?.resultCode, .SQLITE_MISMATCH)
            }
        }
    }
}
