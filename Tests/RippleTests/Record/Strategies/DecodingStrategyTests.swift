import Foundation
import XCTest

@testable import Ripple

/// The decoding strategies of `Decodable` records, as GRDB documents them: each applies to
/// records read through a cursor (statement rows) and to copied rows.
final class DecodingStrategyTests: XCTestCase {
    private func makeDatabase(_ sql: String) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: sql) }
        return dbQueue
    }

    func testSnakeCaseColumnsDecodeIntoCamelCaseProperties() throws {
        struct Player: Decodable, FetchableRecord, Equatable {
            static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
            var playerId: Int
            var fullName: String
            var bestScore: Int?
        }
        let dbQueue = try makeDatabase(
            """
            CREATE TABLE player(player_id INTEGER, full_name TEXT, best_score INTEGER);
            INSERT INTO player VALUES (1, 'Arthur', 100), (2, 'Barbara', NULL);
            """)
        let expected = [Player(playerId: 1, fullName: "Arthur", bestScore: 100), Player(playerId: 2, fullName: "Barbara", bestScore: nil)]
        try dbQueue.read { db in
            XCTAssertEqual(try Player.fetchAll(db, sql: "SELECT * FROM player ORDER BY player_id"), expected)
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM player ORDER BY player_id")
            XCTAssertEqual(try rows.map { try Player(row: $0) }, expected)
            XCTAssertEqual(try rows.map { try FetchableRecordDecoder().decode(Player.self, from: $0) }, expected)
            // A key whose converted column is missing is a missing column.
            XCTAssertThrowsError(try Player.fetchAll(db, sql: "SELECT player_id, fullname AS x FROM (SELECT 1 AS player_id, 'a' AS fullname)"))
        }
    }

    func testCustomColumnStrategyAndTwoRecordTypesOnOneRow() throws {
        struct Upper: Decodable, FetchableRecord, Equatable {
            static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.custom { column in
                AnyKey(stringValue: column.lowercased())
            }
            var name: String
        }
        struct Plain: Decodable, FetchableRecord, Equatable {
            var NAME: String
        }
        let dbQueue = try makeDatabase("CREATE TABLE t(NAME TEXT); INSERT INTO t VALUES ('a'), ('b')")
        try dbQueue.read { db in
            // One cursor row decodes two record types, each with its own strategy.
            let cursor = try Row.fetchCursor(db, sql: "SELECT NAME FROM t ORDER BY NAME")
            var pairs: [(Upper, Plain)] = []
            while let row = try cursor.next() { pairs.append((try Upper(row: row), try Plain(row: row))) }
            XCTAssertEqual(pairs.map(\.0), [Upper(name: "a"), Upper(name: "b")])
            XCTAssertEqual(pairs.map(\.1), [Plain(NAME: "a"), Plain(NAME: "b")])
        }
    }

    func testDateStrategiesReadTheirColumns() throws {
        struct Event: Decodable, FetchableRecord {
            var unix: Date
            var millis: Date
            var reference: Date
            var iso: Date
            var custom: Date?
            var plain: Date
            static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
                switch column {
                case "unix": return .timeIntervalSince1970
                case "millis": return .millisecondsSince1970
                case "reference": return .timeIntervalSinceReferenceDate
                case "iso": return .iso8601
                case "custom": return .custom { dbValue in Int.fromDatabaseValue(dbValue).map { Date(timeIntervalSince1970: Double($0) * 86400) } }
                default: return .deferredToDate
                }
            }
        }
        let dbQueue = try makeDatabase(
            """
            CREATE TABLE event(unix, millis, reference, iso, custom, plain);
            INSERT INTO event VALUES (1000000000, 1000000000500, 10.5, '2001-09-09T01:46:40Z', 2, '2001-09-09 01:46:40.000');
            INSERT INTO event VALUES (0, 0, 0, '1970-01-01T00:00:00Z', NULL, '1970-01-01 00:00:00.000');
            """)
        try dbQueue.read { db in
            for events in [
                try Event.fetchAll(db, sql: "SELECT * FROM event ORDER BY rowid"),
                try Row.fetchAll(db, sql: "SELECT * FROM event ORDER BY rowid").map { try Event(row: $0) },
            ] {
                XCTAssertEqual(events[0].unix, Date(timeIntervalSince1970: 1_000_000_000))
                XCTAssertEqual(events[0].millis, Date(timeIntervalSince1970: 1_000_000_000.5))
                XCTAssertEqual(events[0].reference, Date(timeIntervalSinceReferenceDate: 10.5))
                XCTAssertEqual(events[0].iso, Date(timeIntervalSince1970: 1_000_000_000))
                XCTAssertEqual(events[0].custom, Date(timeIntervalSince1970: 2 * 86400))
                XCTAssertEqual(events[0].plain, Date(timeIntervalSince1970: 1_000_000_000))
                XCTAssertEqual(events[1].unix, Date(timeIntervalSince1970: 0))
                XCTAssertNil(events[1].custom)
            }
        }
    }

    func testADateThatDoesNotConvertThrowsADatabaseErrorNamingTheColumn() throws {
        struct Event: Decodable, FetchableRecord {
            static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .iso8601 }
            var date: Date
        }
        let dbQueue = try makeDatabase("CREATE TABLE event(date); INSERT INTO event VALUES ('not a date')")
        try dbQueue.read { db in
            XCTAssertThrowsError(try Event.fetchAll(db, sql: "SELECT * FROM event")) { error in
                guard let error = error as? DatabaseError else { return XCTFail("\(error)") }
                XCTAssertEqual(error.resultCode, .SQLITE_MISMATCH)
                XCTAssertTrue(error.message?.contains("date") ?? false, error.message ?? "")
            }
        }
    }

    func testDataStrategy() throws {
        struct Item: Decodable, FetchableRecord {
            static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy {
                column == "hex" ? .custom { dbValue in String.fromDatabaseValue(dbValue).map { Data(String($0.reversed()).utf8) } } : .deferredToData
            }
            var hex: Data
            var blob: Data
        }
        let dbQueue = try makeDatabase("CREATE TABLE item(hex, blob); INSERT INTO item VALUES ('abc', x'0102')")
        let item = try dbQueue.read { db in try Item.fetchOne(db, sql: "SELECT * FROM item")! }
        XCTAssertEqual(item.hex, Data("cba".utf8))
        XCTAssertEqual(item.blob, Data([1, 2]))
    }

    func testJSONColumnsReadDatesAsMillisecondsAsGRDBWritesThem() throws {
        struct Nested: Codable, Equatable {
            var date: Date
            var bytes: Data
        }
        struct Item: Decodable, FetchableRecord { var nested: Nested }
        // The JSON GRDB stores for `Nested(date: 1970-01-01 00:00:01 UTC, bytes: [1, 2])`.
        let dbQueue = try makeDatabase(#"CREATE TABLE item(nested); INSERT INTO item VALUES ('{"bytes":"AQI=","date":1000}')"#)
        let item = try dbQueue.read { db in try Item.fetchOne(db, sql: "SELECT * FROM item")! }
        XCTAssertEqual(item.nested, Nested(date: Date(timeIntervalSince1970: 1), bytes: Data([1, 2])))
    }

    func testRecordJSONDecoderAndUserInfo() throws {
        struct Nested: Codable, Equatable { var date: Date }
        struct Item: Decodable, FetchableRecord {
            static let key = CodingUserInfoKey(rawValue: "tag")!
            static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { [key: "from the record"] }
            static func databaseJSONDecoder(for column: String) -> JSONDecoder {
                let decoder = JSONDecoder()
                decoder.dateDecodingStrategy = .secondsSince1970
                return decoder
            }
            var nested: Nested
            var tag: String
            enum CodingKeys: String, CodingKey { case nested }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                nested = try container.decode(Nested.self, forKey: .nested)
                tag = decoder.userInfo[Self.key] as? String ?? "none"
            }
        }
        let dbQueue = try makeDatabase(#"CREATE TABLE item(nested); INSERT INTO item VALUES ('{"date":10}')"#)
        let item = try dbQueue.read { db in try Item.fetchOne(db, sql: "SELECT * FROM item")! }
        XCTAssertEqual(item.nested, Nested(date: Date(timeIntervalSince1970: 10)))
        XCTAssertEqual(item.tag, "from the record")
    }

    func testValuesThatWrapADateOrDataUseTheColumnsStrategyAndTheRecordsUserInfo() throws {
        // A single-value wrapper reads its `Date` or `Data` with the strategy of its
        // column, and gets the record's user info, as does a value decoded from a scope.
        struct Stamp: Decodable {
            var date: Date
            var tag: String?
            init(from decoder: any Decoder) throws {
                date = try decoder.singleValueContainer().decode(Date.self)
                tag = decoder.userInfo[Item.key] as? String
            }
        }
        struct Blob: Decodable {
            var data: Data
            init(from decoder: any Decoder) throws { data = try decoder.singleValueContainer().decode(Data.self) }
        }
        struct Scoped: Decodable {
            var name: String
            var tag: String?
            enum CodingKeys: String, CodingKey { case name }
            init(from decoder: any Decoder) throws {
                name = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
                tag = decoder.userInfo[Item.key] as? String
            }
        }
        struct Item: Decodable, FetchableRecord {
            static let key = CodingUserInfoKey(rawValue: "tag")!
            static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { [key: "from the record"] }
            static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
                column == "stamp" ? .timeIntervalSince1970 : .deferredToDate
            }
            static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy {
                column == "blob" ? .custom { _ in Data([1, 2, 3]) } : .deferredToData
            }
            var stamp: Stamp
            var other: Stamp?
            var blob: Blob
            var scoped: Scoped
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let request = SQLRequest<Item>(
                sql: "SELECT 10 AS stamp, '2001-01-01 00:00:00' AS other, 'foo' AS blob, 'Arthur' AS name",
                adapter: ScopeAdapter(["scoped": SuffixRowAdapter(fromIndex: 3)]))
            for item in [try request.fetchOne(db)!, try Item(row: try Row.fetchOne(db, request)!)] {
                XCTAssertEqual(item.stamp.date, Date(timeIntervalSince1970: 10))
                XCTAssertEqual(item.stamp.tag, "from the record")
                XCTAssertEqual(item.other?.date, Date(timeIntervalSinceReferenceDate: 0))
                XCTAssertEqual(item.blob.data, Data([1, 2, 3]))
                XCTAssertEqual(item.scoped.name, "Arthur")
                XCTAssertEqual(item.scoped.tag, "from the record")
            }
        }
    }

    func testStrategiesStayWithTheirRecordType() throws {
        struct Event: Decodable, FetchableRecord {
            static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSince1970 }
            var date: Date
        }
        struct Plain: Decodable { var date: Date }
        struct Wrapper: Decodable, FetchableRecord { var plain: Plain }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            for _ in 0..<3 {
                // Copied rows: their decoders' states go back to a pool, and are used again.
                let event = try Event(row: try Row.fetchOne(db, sql: "SELECT 10 AS date")!)
                XCTAssertEqual(event.date, Date(timeIntervalSince1970: 10))
                let wrapper = try Wrapper(row: try Row.fetchOne(db, sql: "SELECT '1970-01-01 00:00:20.000' AS date")!)
                XCTAssertEqual(wrapper.plain.date, Date(timeIntervalSince1970: 20))
                let wrappers = try Wrapper.fetchAll(db, sql: "SELECT '1970-01-01 00:00:30.000' AS date")
                XCTAssertEqual(wrappers.map(\.plain.date), [Date(timeIntervalSince1970: 30)])
            }
        }
    }

    func testSnakeCaseConversions() {
        XCTAssertEqual(SnakeCase.snakeCased("myProperty"), "my_property")
        XCTAssertEqual(SnakeCase.snakeCased("myURLProperty"), "my_url_property")
        XCTAssertEqual(SnakeCase.snakeCased("playerID"), "player_id")
        XCTAssertEqual(SnakeCase.snakeCased("URL"), "url")
        XCTAssertEqual(SnakeCase.snakeCased("name"), "name")
        XCTAssertEqual(SnakeCase.snakeCased(""), "")
        XCTAssertEqual(SnakeCase.camelCased("my_url_property"), "myUrlProperty")
        XCTAssertEqual(SnakeCase.camelCased("player_id"), "playerId")
        XCTAssertEqual(SnakeCase.camelCased("_private_name_"), "_privateName_")
        XCTAssertEqual(SnakeCase.camelCased("name"), "name")
        XCTAssertEqual(SnakeCase.camelCased("Name"), "Name")
        XCTAssertEqual(SnakeCase.camelCased("___"), "___")
        XCTAssertEqual(SnakeCase.camelCased("a__b"), "aB")
    }
}
