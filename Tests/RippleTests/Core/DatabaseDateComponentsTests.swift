import Foundation
import XCTest

@testable import Ripple

final class DatabaseDateComponentsTests: XCTestCase {
    private typealias Format = DatabaseDateComponents.Format

    /// 1973-09-18 10:11:12.123456789, all components set.
    private let full = DateComponents(year: 1973, month: 9, day: 18, hour: 10, minute: 11, second: 12, nanosecond: 123_456_789)

    /// Asserts that `string` reads as `components` in `format`, from a value and from a
    /// statement column.
    private func assertParses(
        _ string: String, _ components: DateComponents, _ format: Format,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let fromValue = DatabaseDateComponents.fromDatabaseValue(string.databaseValue)
        XCTAssertEqual(fromValue?.format, format, "\(string)", file: file, line: line)
        XCTAssertEqual(fromValue?.dateComponents, components, "\(string)", file: file, line: line)
        let fetched = try DatabaseQueue().read { try DatabaseDateComponents.fetchOne($0, sql: "SELECT ?", arguments: [string]) }
        XCTAssertEqual(fetched?.format, format, "\(string)", file: file, line: line)
        XCTAssertEqual(fetched?.dateComponents, components, "\(string)", file: file, line: line)
    }

    /// Asserts that `string` is not date components: nil from a value, and a
    /// `SQLITE_MISMATCH` error from the fetches.
    private func assertRejects(_ string: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertNil(DatabaseDateComponents.fromDatabaseValue(string.databaseValue), "\(string)", file: file, line: line)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            assertDatabaseError(.SQLITE_MISMATCH, file: file, line: line) {
                try DatabaseDateComponents.fetchOne(db, sql: "SELECT ?", arguments: [string])
            }
            assertDatabaseError(.SQLITE_MISMATCH, file: file, line: line) {
                try DatabaseDateComponents?.fetchAll(db, sql: "SELECT ?", arguments: [string])
            }
            let row = try Row.fetchOne(db, sql: "SELECT ? AS value", arguments: [string])!
            assertDatabaseError(.SQLITE_MISMATCH, file: file, line: line) {
                try row.decode(DatabaseDateComponents.self, forColumn: "value")
            }
        }
    }

    private func time(_ hour: Int, _ minute: Int, _ second: Int? = nil, _ nanosecond: Int? = nil, zone: Int? = nil) -> DateComponents {
        DateComponents(
            timeZone: zone.map { TimeZone(secondsFromGMT: $0)! },
            hour: hour, minute: minute, second: second, nanosecond: nanosecond)
    }

    private func dateTime(_ hour: Int, _ minute: Int, _ second: Int? = nil, _ nanosecond: Int? = nil, zone: Int? = nil) -> DateComponents {
        var components = time(hour, minute, second, nanosecond, zone: zone)
        components.year = 2018
        components.month = 4
        components.day = 21
        return components
    }

    // MARK: - Writing and reading back

    func testFormatsSpellTheirPatterns() {
        XCTAssertEqual(Format.YMD.rawValue, "yyyy-MM-dd")
        XCTAssertEqual(Format.YMD_HM.rawValue, "yyyy-MM-dd HH:mm")
        XCTAssertEqual(Format.YMD_HMS.rawValue, "yyyy-MM-dd HH:mm:ss")
        XCTAssertEqual(Format.YMD_HMSS.rawValue, "yyyy-MM-dd HH:mm:ss.SSS")
        XCTAssertEqual(Format.HM.rawValue, "HH:mm")
        XCTAssertEqual(Format.HMS.rawValue, "HH:mm:ss")
        XCTAssertEqual(Format.HMSS.rawValue, "HH:mm:ss.SSS")
        XCTAssertEqual(Format(rawValue: "HH:mm"), .HM)
    }

    func testEachFormatStoresItsTextAndReadsBackItsComponents() throws {
        let cases: [(Format, String, DateComponents)] = [
            (.YMD, "1973-09-18", DateComponents(year: 1973, month: 9, day: 18)),
            (.YMD_HM, "1973-09-18 10:11", DateComponents(year: 1973, month: 9, day: 18, hour: 10, minute: 11)),
            (
                .YMD_HMS, "1973-09-18 10:11:12",
                DateComponents(year: 1973, month: 9, day: 18, hour: 10, minute: 11, second: 12)
            ),
            (
                .YMD_HMSS, "1973-09-18 10:11:12.123",
                DateComponents(year: 1973, month: 9, day: 18, hour: 10, minute: 11, second: 12, nanosecond: 123_000_000)
            ),
            (.HM, "10:11", DateComponents(hour: 10, minute: 11)),
            (.HMS, "10:11:12", DateComponents(hour: 10, minute: 11, second: 12)),
            (.HMSS, "10:11:12.123", DateComponents(hour: 10, minute: 11, second: 12, nanosecond: 123_000_000)),
        ]
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE moment (id INTEGER PRIMARY KEY, value)")
            for (id, (format, text, components)) in cases.enumerated() {
                let value = DatabaseDateComponents(full, format: format)
                XCTAssertEqual(value.databaseValue, text.databaseValue, "\(format)")
                try db.execute(sql: "INSERT INTO moment (id, value) VALUES (?, ?)", arguments: [id, value])
                let arguments: StatementArguments = [id]

                XCTAssertEqual(try String.fetchOne(db, sql: "SELECT value FROM moment WHERE id = ?", arguments: arguments), text)
                XCTAssertEqual(try String.fetchOne(db, sql: "SELECT typeof(value) FROM moment WHERE id = ?", arguments: arguments), "text")

                let fetched = try DatabaseDateComponents.fetchOne(db, sql: "SELECT value FROM moment WHERE id = ?", arguments: arguments)
                XCTAssertEqual(fetched?.format, format)
                XCTAssertEqual(fetched?.dateComponents, components, "\(format)")

                // A copied row reads through fromDatabaseValue; a cursor's row, from the statement.
                let row = try Row.fetchOne(db, sql: "SELECT value FROM moment WHERE id = ?", arguments: arguments)!
                let fromRow: DatabaseDateComponents = row["value"]
                XCTAssertEqual(fromRow.format, format)
                XCTAssertEqual(fromRow.dateComponents, components, "\(format)")
                let cursor = try Row.fetchCursor(db, sql: "SELECT value FROM moment WHERE id = ?", arguments: arguments)
                let cursorRow = try XCTUnwrap(cursor.next())
                let fromCursorRow: DatabaseDateComponents = cursorRow["value"]
                let fromCursorRowIndex: DatabaseDateComponents? = cursorRow[0]
                XCTAssertEqual(fromCursorRow.format, format)
                XCTAssertEqual(fromCursorRow.dateComponents, components, "\(format)")
                XCTAssertEqual(fromCursorRowIndex?.dateComponents, components, "\(format)")
            }
            let all = try DatabaseDateComponents.fetchAll(db, sql: "SELECT value FROM moment ORDER BY id")
            XCTAssertEqual(all.map(\.format), cases.map(\.0))
        }
    }

    func testMissingComponentsAreWrittenAsZeroAndJanuaryFirst() throws {
        let empty = DatabaseDateComponents(DateComponents(), format: .YMD_HMSS)
        XCTAssertEqual(empty.databaseValue, "0000-01-01 00:00:00.000".databaseValue)
        let fetched = try DatabaseQueue().read { try DatabaseDateComponents.fetchOne($0, sql: "SELECT ?", arguments: [empty]) }
        XCTAssertEqual(fetched?.dateComponents, DateComponents(year: 0, month: 1, day: 1, hour: 0, minute: 0, second: 0, nanosecond: 0))

        let timeOfDate = DatabaseDateComponents(DateComponents(year: 2018, month: 4, day: 21), format: .HMS)
        XCTAssertEqual(timeOfDate.databaseValue, "00:00:00".databaseValue)
    }

    func testNanosecondsAreRoundedToMillisecondsWithinTheSecond() {
        func text(_ nanosecond: Int) -> DatabaseValue {
            DatabaseDateComponents(DateComponents(hour: 1, minute: 2, second: 3, nanosecond: nanosecond), format: .HMSS).databaseValue
        }
        XCTAssertEqual(text(1_000_000), "01:02:03.001".databaseValue)
        XCTAssertEqual(text(123_499_999), "01:02:03.123".databaseValue)
        XCTAssertEqual(text(123_500_000), "01:02:03.124".databaseValue)
        // Rounding up to 1000 ms would write "03.1000", which SQLite reads as 3.1 seconds.
        XCTAssertEqual(text(999_600_000), "01:02:03.999".databaseValue)
    }

    func testNumbersWiderThanTheFormatAreWrittenInFull() {
        let value = DatabaseDateComponents(DateComponents(year: 12345, month: 10, day: 2, hour: 100, minute: 5), format: .YMD_HM)
        XCTAssertEqual(value.databaseValue, "12345-10-02 100:05".databaseValue)
        let negative = DatabaseDateComponents(DateComponents(year: -1, month: 1, day: 1), format: .YMD)
        XCTAssertEqual(negative.databaseValue, "-001-01-01".databaseValue)
    }

    func testTextIsUnderstoodBySQLiteDateFunctions() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let day = DatabaseDateComponents(DateComponents(year: 2018, month: 4, day: 21), format: .YMD)
            XCTAssertEqual(try String.fetchOne(db, sql: "SELECT date(?, '+1 day')", arguments: [day]), "2018-04-22")
            let time = DatabaseDateComponents(DateComponents(hour: 23, minute: 59, second: 58, nanosecond: 500_000_000), format: .HMSS)
            XCTAssertEqual(try String.fetchOne(db, sql: "SELECT strftime('%H:%M:%f', ?, '+1 second')", arguments: [time]), "23:59:59.500")
        }
    }

    func testFormatYMD_HMSSortsWithCURRENT_TIMESTAMP() throws {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        func now(plus seconds: TimeInterval) -> DatabaseDateComponents {
            let date = Date().addingTimeInterval(seconds)
            return DatabaseDateComponents(utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date), format: .YMD_HMS)
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE event (id INTEGER PRIMARY KEY, at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)")
            try db.execute(sql: "INSERT INTO event (id, at) VALUES (1, ?)", arguments: [now(plus: -1)])
            try db.execute(sql: "INSERT INTO event (id) VALUES (2)")
            try db.execute(sql: "INSERT INTO event (id, at) VALUES (3, ?)", arguments: [now(plus: 1)])
            XCTAssertEqual(try Int.fetchAll(db, sql: "SELECT id FROM event ORDER BY at"), [1, 2, 3])
            // CURRENT_TIMESTAMP itself reads as YMD_HMS.
            let current = try DatabaseDateComponents.fetchOne(db, sql: "SELECT at FROM event WHERE id = 2")
            XCTAssertEqual(current?.format, .YMD_HMS)
        }
    }

    // MARK: - Reading

    func testParsesDates() throws {
        try assertParses("0000-01-01", DateComponents(year: 0, month: 1, day: 1), .YMD)
        try assertParses("2018-12-31", DateComponents(year: 2018, month: 12, day: 31), .YMD)
        try assertParses("2018-04-21 00:00", dateTime(0, 0), .YMD_HM)
        try assertParses("2018-04-21T23:59", dateTime(23, 59), .YMD_HM)
        try assertParses("2018-04-21 00:00:00", dateTime(0, 0, 0), .YMD_HMS)
        try assertParses("2018-04-21T23:59:59", dateTime(23, 59, 59), .YMD_HMS)
        try assertParses("2018-04-21 00:00:00.0", dateTime(0, 0, 0, 0), .YMD_HMSS)
        try assertParses("2018-04-21T23:59:59.9", dateTime(23, 59, 59, 900_000_000), .YMD_HMSS)
        try assertParses("2018-04-21 00:00:00.01", dateTime(0, 0, 0, 10_000_000), .YMD_HMSS)
        try assertParses("2018-04-21T23:59:59.99", dateTime(23, 59, 59, 990_000_000), .YMD_HMSS)
        try assertParses("2018-04-21 00:00:00.001", dateTime(0, 0, 0, 1_000_000), .YMD_HMSS)
        try assertParses("2018-04-21T23:59:59.999", dateTime(23, 59, 59, 999_000_000), .YMD_HMSS)
    }

    func testParsesTimes() throws {
        try assertParses("00:00", time(0, 0), .HM)
        try assertParses("23:59", time(23, 59), .HM)
        try assertParses("00:00:00", time(0, 0, 0), .HMS)
        try assertParses("23:59:59", time(23, 59, 59), .HMS)
        try assertParses("00:00:00.0", time(0, 0, 0, 0), .HMSS)
        try assertParses("23:59:59.9", time(23, 59, 59, 900_000_000), .HMSS)
        try assertParses("00:00:00.01", time(0, 0, 0, 10_000_000), .HMSS)
        try assertParses("00:00:00.001", time(0, 0, 0, 1_000_000), .HMSS)
        try assertParses("23:59:59.999", time(23, 59, 59, 999_000_000), .HMSS)
    }

    func testFractionDigitsAfterTheThirdAreSkipped() throws {
        try assertParses("2018-04-21T23:59:59.999123", dateTime(23, 59, 59, 999_000_000), .YMD_HMSS)
        try assertParses("23:59:59.999999", time(23, 59, 59, 999_000_000), .HMSS)
        try assertParses("23:59:59.999123Z", time(23, 59, 59, 999_000_000, zone: 0), .HMSS)
    }

    func testParsesTimeZones() throws {
        try assertParses("2018-04-21 00:00Z", dateTime(0, 0, zone: 0), .YMD_HM)
        try assertParses("2018-04-21 00:00+00:00", dateTime(0, 0, zone: 0), .YMD_HM)
        try assertParses("2018-04-21 00:00-00:00", dateTime(0, 0, zone: 0), .YMD_HM)
        try assertParses("2018-04-21 00:00+01:15", dateTime(0, 0, zone: 4500), .YMD_HM)
        try assertParses("2018-04-21 00:00-01:15", dateTime(0, 0, zone: -4500), .YMD_HM)
        try assertParses("2018-04-21T23:59:59Z", dateTime(23, 59, 59, zone: 0), .YMD_HMS)
        try assertParses("2018-04-21T23:59:59+02:00", dateTime(23, 59, 59, zone: 7200), .YMD_HMS)
        try assertParses("2018-04-21T23:59:59.9Z", dateTime(23, 59, 59, 900_000_000, zone: 0), .YMD_HMSS)
        try assertParses("2018-04-21T23:59:59.99Z", dateTime(23, 59, 59, 990_000_000, zone: 0), .YMD_HMSS)
        try assertParses("2018-04-21T23:59:59.999-01:15", dateTime(23, 59, 59, 999_000_000, zone: -4500), .YMD_HMSS)
        try assertParses("23:59Z", time(23, 59, zone: 0), .HM)
        try assertParses("23:59+01:15", time(23, 59, zone: 4500), .HM)
        try assertParses("23:59-01:15", time(23, 59, zone: -4500), .HM)
        try assertParses("23:59:59-05:00", time(23, 59, 59, zone: -18000), .HMS)
        try assertParses("23:59:59.999+00:00", time(23, 59, 59, 999_000_000, zone: 0), .HMSS)
    }

    func testDigitsAreNotRangeChecked() throws {
        // As GRDB: the components carry the numbers as written.
        try assertParses("2018-13-45", DateComponents(year: 2018, month: 13, day: 45), .YMD)
        try assertParses("25:61:99", time(25, 61, 99), .HMS)
    }

    func testRejectsMalformedText() throws {
        for string in [
            "", "foo", "1:23", "12:3", "12-34", "2018", "2018-04", "2018-4-21", "2018-04-2", "2018/04/21",
            "2018-04-21 ", "2018-04-21T", "2018-04-21 12", "2018-04-21 12:3", "2018-04-21x12:34",
            "2018-04-21Z", "2018-04-21 12:34:5", "12:34:", "12:34.5", "12:34:56.", "12:34:56.x",
            "12:34 ", "12:34Zjunk", "12:34ZZ", "12:34+01", "12:34+0100", "12:34+01:0", "12:34+", "12:34+:56",
            "12:34+99:00", " 12:34", "１２:34", "2018-04-21 12:34:56.789 ",
        ] {
            try assertRejects(string)
        }
    }

    func testNonTextValues() throws {
        XCTAssertNil(DatabaseDateComponents.fromDatabaseValue(20180421.databaseValue))
        XCTAssertNil(DatabaseDateComponents.fromDatabaseValue(12.5.databaseValue))
        XCTAssertNil(DatabaseDateComponents.fromDatabaseValue(.null))
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            assertDatabaseError(.SQLITE_MISMATCH) { try DatabaseDateComponents.fetchOne(db, sql: "SELECT 20180421") }
            assertDatabaseError(.SQLITE_MISMATCH) { try DatabaseDateComponents.fetchAll(db, sql: "SELECT NULL") }
            XCTAssertNil(try DatabaseDateComponents.fetchOne(db, sql: "SELECT NULL"))
            let optionals = try DatabaseDateComponents?.fetchAll(db, sql: "SELECT NULL UNION ALL SELECT '12:34'")
            XCTAssertEqual(optionals.map { $0?.format }, [nil, .HM])
        }
    }

    func testBlobsAreReadAsText() throws {
        let blob = Data("2018-04-21 12:34".utf8)
        XCTAssertEqual(DatabaseDateComponents.fromDatabaseValue(blob.databaseValue)?.format, .YMD_HM)
        let fetched = try DatabaseQueue().read { try DatabaseDateComponents.fetchOne($0, sql: "SELECT ?", arguments: [blob]) }
        XCTAssertEqual(fetched?.dateComponents, dateTime(12, 34))
        XCTAssertNil(DatabaseDateComponents.fromDatabaseValue(Data().databaseValue))
    }

    func testMismatchErrorNamesTheTypeValueAndColumn() throws {
        let error = assertDatabaseError(.SQLITE_MISMATCH) {
            try DatabaseQueue().read { try DatabaseDateComponents.fetchOne($0, sql: "SELECT 'yesterday' AS day") }
        }
        XCTAssertEqual(error?.message, "could not decode DatabaseDateComponents from database value \"yesterday\" in column \"day\" (index 0)")
    }

    // MARK: - Codable

    func testJSONEncodingIsTheStoredText() throws {
        struct Payload: Encodable { var date: DatabaseDateComponents }
        let payload = Payload(date: DatabaseDateComponents(DateComponents(year: 2018, month: 12, day: 31), format: .YMD))
        XCTAssertEqual(String(decoding: try JSONEncoder().encode(payload), as: UTF8.self), #"{"date":"2018-12-31"}"#)
    }

    func testJSONDecodingParsesTheText() throws {
        struct Payload: Decodable { var date: DatabaseDateComponents }
        let payload = try JSONDecoder().decode(Payload.self, from: Data(#"{"date":"2018-12-31"}"#.utf8))
        XCTAssertEqual(payload.date.format, .YMD)
        XCTAssertEqual(payload.date.dateComponents, DateComponents(year: 2018, month: 12, day: 31))
        XCTAssertThrowsError(try JSONDecoder().decode(Payload.self, from: Data(#"{"date":"tomorrow"}"#.utf8))) { error in
            guard case DecodingError.dataCorrupted = error else { return XCTFail("\(error)") }
        }
    }

    private struct Alarm: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var time: DatabaseDateComponents
        var day: DatabaseDateComponents?
    }

    func testRecordPropertiesAreStoredAsText() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE alarm (id INTEGER PRIMARY KEY, time TEXT NOT NULL, day TEXT)")
            try Alarm(id: 1, time: DatabaseDateComponents(time(7, 30), format: .HM), day: nil).insert(db)
            try Alarm(
                id: 2,
                time: DatabaseDateComponents(time(8, 0, 15), format: .HMS),
                day: DatabaseDateComponents(DateComponents(year: 2018, month: 4, day: 21), format: .YMD)
            ).insert(db)
            XCTAssertEqual(
                try String.fetchAll(db, sql: "SELECT time || '/' || ifnull(day, '-') FROM alarm ORDER BY id"),
                ["07:30/-", "08:00:15/2018-04-21"])
            let alarms = try Alarm.fetchAll(db, sql: "SELECT * FROM alarm ORDER BY id")
            XCTAssertEqual(alarms.map(\.time.format), [.HM, .HMS])
            XCTAssertEqual(alarms.map(\.time.dateComponents), [time(7, 30), time(8, 0, 15)])
            XCTAssertNil(alarms[0].day)
            XCTAssertEqual(alarms[1].day?.dateComponents, DateComponents(year: 2018, month: 4, day: 21))

            try db.execute(sql: "UPDATE alarm SET time = 'noon' WHERE id = 1")
            assertDatabaseError(.SQLITE_MISMATCH) { try Alarm.fetchAll(db, sql: "SELECT * FROM alarm") }
        }
    }
}
