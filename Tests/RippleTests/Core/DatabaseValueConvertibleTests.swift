import Foundation
import XCTest

@testable import Ripple

final class DatabaseValueConvertibleTests: XCTestCase {
    /// Stores `value` and reads it back, through the fast and the generic paths.
    private func roundTrip<T: DatabaseValueConvertible & Equatable>(_ value: T, file: StaticString = #filePath, line: UInt = #line) throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t(v)")
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [value])
            XCTAssertEqual(try T.fetchOne(db, sql: "SELECT v FROM t"), value, file: file, line: line)
            XCTAssertEqual(try T.fetchAll(db, sql: "SELECT v FROM t"), [value], file: file, line: line)
            let row = try Row.fetchOne(db, sql: "SELECT v FROM t")!
            XCTAssertEqual(try row.decode(T.self, atIndex: 0), value, file: file, line: line)
            XCTAssertEqual(T.fromDatabaseValue(value.databaseValue), value, file: file, line: line)
        }
    }

    func testIntegerTypesRoundTrip() throws {
        try roundTrip(Int.max)
        try roundTrip(Int.min)
        try roundTrip(Int8.min)
        try roundTrip(Int16.max)
        try roundTrip(Int32.min)
        try roundTrip(Int64.max)
        try roundTrip(UInt(42))
        try roundTrip(UInt8.max)
        try roundTrip(UInt16.max)
        try roundTrip(UInt32.max)
        try roundTrip(UInt64(Int64.max))
    }

    func testOtherTypesRoundTrip() throws {
        try roundTrip(true)
        try roundTrip(false)
        try roundTrip(3.25)
        try roundTrip(Float(1.5))
        try roundTrip("Arthur")
        try roundTrip("")
        try roundTrip("emoji 🎉 and accents é")
        try roundTrip(Data([0, 1, 2, 255]))
        try roundTrip(UUID())
        try roundTrip(Date(timeIntervalSince1970: 1_700_000_000.123))
        try roundTrip(URL(string: "https://example.com/x?y=1")!)
    }

    func testTextWithNulBytesRoundTripsByteForByte() throws {
        try roundTrip("a\0b\0")
        let dbQueue = try DatabaseQueue()
        let length = try dbQueue.read { try Int.fetchOne($0, sql: "SELECT length(CAST(? AS BLOB))", arguments: ["a\0b\0"]) }
        XCTAssertEqual(length, 4)
    }

    func testEmptyDataIsAnEmptyBlobNotNull() throws {
        let dbQueue = try DatabaseQueue()
        let type = try dbQueue.read { try String.fetchOne($0, sql: "SELECT typeof(?)", arguments: [Data()]) }
        XCTAssertEqual(type, "blob")
        let textType = try dbQueue.read { try String.fetchOne($0, sql: "SELECT typeof(?)", arguments: [""]) }
        XCTAssertEqual(textType, "text")
    }

    func testOptionalNilIsNull() throws {
        let dbQueue = try DatabaseQueue()
        let none: Int? = nil
        XCTAssertEqual(try dbQueue.read { try String.fetchOne($0, sql: "SELECT typeof(?)", arguments: [none]) }, "null")
        XCTAssertEqual(try dbQueue.read { try Int?.fetchAll($0, sql: "SELECT 1 UNION ALL SELECT NULL") }, [1, nil])
    }

    func testWrongConversionThrowsInsteadOfDefault() throws {
        let dbQueue = try DatabaseQueue()
        let error = assertDatabaseError(.SQLITE_MISMATCH) {
            try dbQueue.read { try Int.fetchOne($0, sql: "SELECT 'abc'") }
        }
        XCTAssertEqual(error?.message, "could not decode Int from database value \"abc\" in column \"'abc'\" (index 0)")
        XCTAssertEqual(error?.sql, "SELECT 'abc'")
        assertDatabaseError(.SQLITE_MISMATCH) { try dbQueue.read { try Int.fetchAll($0, sql: "SELECT 'abc'") } }
        assertDatabaseError(.SQLITE_MISMATCH) { try dbQueue.read { try UUID.fetchAll($0, sql: "SELECT 'not a uuid'") } }
        assertDatabaseError(.SQLITE_MISMATCH) { try dbQueue.read { try Date.fetchAll($0, sql: "SELECT 'yesterday'") } }
        assertDatabaseError(.SQLITE_MISMATCH) { try dbQueue.read { try String.fetchAll($0, sql: "SELECT 12") } }
    }

    func testNullIntoNonOptionalThrows() throws {
        let dbQueue = try DatabaseQueue()
        let error = assertDatabaseError(.SQLITE_MISMATCH) {
            try dbQueue.read { try Int.fetchAll($0, sql: "SELECT NULL AS score") }
        }
        XCTAssertEqual(error?.message, "unexpected NULL: could not decode Int in column \"score\" (index 0)")
        // fetchOne returns nil both for no row and for NULL.
        XCTAssertNil(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT NULL") })
        XCTAssertNil(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT 1 WHERE 0") })
        XCTAssertNil(try dbQueue.read { try UUID.fetchOne($0, sql: "SELECT NULL") })
    }

    func testRealOutsideIntegerRangeThrowsInsteadOfClamping() throws {
        let dbQueue = try DatabaseQueue()
        assertDatabaseError(.SQLITE_MISMATCH) { try dbQueue.read { try Int.fetchOne($0, sql: "SELECT 1e30") } }
        assertDatabaseError(.SQLITE_MISMATCH) { try dbQueue.read { try Int8.fetchOne($0, sql: "SELECT 300") } }
        assertDatabaseError(.SQLITE_MISMATCH) { try dbQueue.read { try UInt.fetchOne($0, sql: "SELECT -1") } }
        assertDatabaseError(.SQLITE_MISMATCH) { try dbQueue.read { try Int.fetchOne($0, sql: "SELECT 1.5") } }
        XCTAssertEqual(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT 2.0") }, 2)
        XCTAssertNil(Int.fromDatabaseValue(DatabaseValue(storage: .double(1e30))))
    }

    func testInvalidUTF8IsReadableAsDataAndReportedAsString() throws {
        let dbQueue = try DatabaseQueue()
        let sql = "SELECT CAST(x'61ff62' AS TEXT) AS name"
        let data = try dbQueue.read { try Data.fetchOne($0, sql: sql) }
        XCTAssertEqual(data, Data([0x61, 0xFF, 0x62]))
        let error = assertDatabaseError(.SQLITE_MISMATCH) { try dbQueue.read { try String.fetchOne($0, sql: sql) } }
        XCTAssertTrue(error?.message?.contains("not valid UTF-8") ?? false, "\(String(describing: error))")
        let row = try dbQueue.read { try Row.fetchOne($0, sql: sql) }!
        XCTAssertEqual(row.databaseValue(atIndex: 0), Data([0x61, 0xFF, 0x62]).databaseValue)
        assertDatabaseError(.SQLITE_MISMATCH) { let _: String = try row.decode(forColumn: "name") }
    }

    /// Texts are built one way up to 15 bytes (small strings) and another way beyond: every
    /// read path gives back the stored bytes exactly, on both sides of the boundary, ASCII
    /// or not, with NUL bytes inside; invalid UTF-8 is never a String, never repaired.
    func testTextsAroundTheSmallStringBoundaryReadBackExactly() throws {
        let dbQueue = try DatabaseQueue()
        var texts: [String] = []
        for length in [0, 1, 7, 14, 15, 16, 17, 31, 200] {
            texts.append(String(repeating: "a", count: length))
            if length > 0 {
                texts.append(String(repeating: "b", count: length - 1) + "\u{0}")
                texts.append("\u{0}" + String(repeating: "b", count: length - 1))
                texts.append(String(repeating: "b", count: length / 2) + "\u{0}" + String(repeating: "b", count: length - 1 - length / 2))
                texts.append(String(repeating: "c", count: length - 1) + "é")  // 1 byte more
                texts.append("🙂" + String(repeating: "d", count: length))  // 4 bytes more
            }
        }
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, value TEXT)")
            for text in texts { try db.execute(sql: "INSERT INTO t (value) VALUES (?)", arguments: [text]) }
        }
        try dbQueue.read { db in
            // Compared byte by byte: String's == is canonical equivalence, not byte equality.
            let expected = texts.map { Array($0.utf8) }
            func bytes(_ strings: [String]) -> [[UInt8]] { strings.map { Array($0.utf8) } }
            // By index, by name, optional, from a cursor row, as a database value, in a copied row.
            XCTAssertEqual(bytes(try String.fetchAll(db, sql: "SELECT value FROM t ORDER BY id")), expected)
            let rows = try Row.fetchCursor(db, sql: "SELECT value FROM t ORDER BY id")
            var index = 0
            while let row = try rows.next() {
                let byIndex: String = row[0]
                let optionalByIndex: String? = row[0]
                let byName: String = row["value"]
                let optionalByName: String? = row["value"]
                let copied: String = row.copy()["value"]
                let reads = [byIndex, optionalByIndex, byName, optionalByName, copied].map { $0.map { Array($0.utf8) } }
                XCTAssertEqual(reads, Array(repeating: expected[index], count: 5))
                XCTAssertEqual(row.databaseValue(atIndex: 0), texts[index].databaseValue)
                index += 1
            }
            XCTAssertEqual(index, texts.count)
            struct Item: Decodable, FetchableRecord { var value: String }
            XCTAssertEqual(bytes(try Item.fetchAll(db, sql: "SELECT value FROM t ORDER BY id").map(\.value)), expected)
        }
        // Invalid UTF-8 of every length around the boundary: Data, never a (repaired) String.
        for length in [1, 14, 15, 16, 40] {
            let hex = String(repeating: "61", count: length - 1) + "ff"
            let sql = "SELECT CAST(x'\(hex)' AS TEXT) AS value"
            assertDatabaseError(.SQLITE_MISMATCH) { try dbQueue.read { try String.fetchOne($0, sql: sql) } }
            let row = try dbQueue.read { try Row.fetchOne($0, sql: sql) }!
            XCTAssertEqual(row.databaseValue(atIndex: 0), (Data(repeating: 0x61, count: length - 1) + [0xFF]).databaseValue)
            assertDatabaseError(.SQLITE_MISMATCH) { let _: String = try row.decode(forColumn: "value") }
        }
    }

    /// The validation used on Apple systems older than `String(validating:as:)` agrees
    /// with it, on valid and invalid UTF-8 of every kind.
    func testDecoderValidationAgreesWithStringValidating() {
        let samples: [[UInt8]] = [
            [], [0x61], Array("é".utf8), Array("🙂".utf8), Array("aé🙂z".utf8), Array("日本語".utf8),
            [0xFF], [0xC3], [0xC3, 0x28], [0xE2, 0x82], [0xF0, 0x9F, 0x98],  // invalid, truncated
            [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xF0, 0x80, 0x80, 0xAF],  // overlong
            [0xED, 0xA0, 0x80],  // a surrogate
            [0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
            [0x80], [0x61, 0x80, 0x62], Array("é".utf8) + [0xFF],
        ]
        for sample in samples {
            sample.withUnsafeBufferPointer { bytes in
                let expected = String(validating: bytes, as: UTF8.self)
                XCTAssertEqual(decoderValidatedString(bytes).map { Array($0.utf8) }, expected.map { Array($0.utf8) }, "\(sample)")
                XCTAssertEqual(validatedString(bytes).map { Array($0.utf8) }, expected.map { Array($0.utf8) }, "\(sample)")
            }
        }
    }

    func testHugeUnsignedIntegersAreStoredAsReal() throws {
        XCTAssertEqual(UInt64.max.databaseValue, DatabaseValue(storage: .double(Double(UInt64.max))))
    }

    func testBoolFromNumbers() throws {
        let dbQueue = try DatabaseQueue()
        XCTAssertEqual(try dbQueue.read { try Bool.fetchAll($0, sql: "SELECT 0 UNION ALL SELECT 2 UNION ALL SELECT 0.5") }, [false, true, true])
    }

    func testDateFormat() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000.123)
        XCTAssertEqual(date.databaseValue, "2023-11-14 22:13:20.123".databaseValue)
        XCTAssertEqual(Date(timeIntervalSince1970: -1).databaseValue, "1969-12-31 23:59:59.000".databaseValue)
    }

    func testDateParsing() throws {
        func parse(_ string: String) -> Date? { Date.fromDatabaseValue(string.databaseValue) }
        XCTAssertEqual(parse("2023-11-14"), Date(timeIntervalSince1970: 1_699_920_000))
        XCTAssertEqual(parse("2023-11-14 22:13"), Date(timeIntervalSince1970: 1_700_000_000 - 20))
        XCTAssertEqual(parse("2023-11-14T22:13:20"), Date(timeIntervalSince1970: 1_700_000_000))
        XCTAssertEqual(parse("2023-11-14T22:13:20Z"), Date(timeIntervalSince1970: 1_700_000_000))
        XCTAssertEqual(parse("2023-11-15T00:13:20+02:00"), Date(timeIntervalSince1970: 1_700_000_000))
        XCTAssertEqual(parse("2023-11-14 22:13:20.5")!.timeIntervalSince1970, 1_700_000_000.5, accuracy: 1e-6)
        XCTAssertNil(parse("2023-13-01"))
        XCTAssertNil(parse("2023-11-14 junk"))
        XCTAssertEqual(Date.fromDatabaseValue(1_700_000_000.databaseValue), Date(timeIntervalSince1970: 1_700_000_000))
    }

    func testDateWorksWithSQLiteDateFunctions() throws {
        let dbQueue = try DatabaseQueue()
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let unix = try dbQueue.read { try Int.fetchOne($0, sql: "SELECT CAST(strftime('%s', ?) AS INTEGER)", arguments: [date]) }
        XCTAssertEqual(unix, 1_700_000_000)
    }

    func testUUIDFromText() throws {
        let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        XCTAssertEqual(UUID.fromDatabaseValue("E621E1F8-C36C-495A-93FC-0C247A3E6E5F".databaseValue), uuid)
    }

    func testDatabaseValueEqualityAndHash() {
        XCTAssertEqual(DatabaseValue(storage: .int64(1)), DatabaseValue(storage: .double(1.0)))
        XCTAssertEqual(Set([DatabaseValue(storage: .int64(1)), DatabaseValue(storage: .double(1.0))]).count, 1)
        XCTAssertNotEqual(1.databaseValue, "1".databaseValue)
        XCTAssertEqual(DatabaseValue.null, nil)
        XCTAssertEqual("a".databaseValue.description, "\"a\"")
        XCTAssertEqual(DatabaseValue.null.description, "NULL")
    }
}
