import Foundation
import XCTest

@testable import Ripple

/// `Codable` database values are stored as JSON with their type's coders.
final class ValueJSONCoderTests: XCTestCase {
    struct Interval: Codable, DatabaseValueConvertible, Equatable {
        var start: Date
        var length: Double

        static func databaseJSONEncoder() -> JSONEncoder {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .secondsSince1970
            encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
            encoder.outputFormatting = .sortedKeys
            return encoder
        }

        static func databaseJSONDecoder() -> JSONDecoder {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .secondsSince1970
            decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
            return decoder
        }
    }

    struct Stamp: Codable, DatabaseValueConvertible, Equatable {
        var date: Date
    }

    func testAValueTypeStoresAndReadsWithItsOwnCoders() throws {
        let interval = Interval(start: Date(timeIntervalSince1970: 10), length: .infinity)
        XCTAssertEqual(interval.databaseValue, #"{"length":"+inf","start":10}"#.databaseValue)
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t(interval)")
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [interval])
            XCTAssertEqual(try Interval.fetchOne(db, sql: "SELECT interval FROM t"), interval)
        }
    }

    func testTheDefaultCodersAreGRDBs() throws {
        let stamp = Stamp(date: Date(timeIntervalSince1970: 1))
        XCTAssertEqual(stamp.databaseValue, #"{"date":1000}"#.databaseValue)
        XCTAssertEqual(Stamp.fromDatabaseValue(#"{"date":2000}"#.databaseValue), Stamp(date: Date(timeIntervalSince1970: 2)))
        // Non-conforming floats throw: the value stores NULL.
        struct Number: Codable, DatabaseValueConvertible { var value: Double }
        XCTAssertEqual(Number(value: .nan).databaseValue, .null)
    }
}
