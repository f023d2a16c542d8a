import Foundation
import XCTest

@testable import Ripple

/// The encoding strategies of `Encodable` records, as GRDB documents them, checked against
/// the values the table holds.
final class EncodingStrategyTests: XCTestCase {
    func testSnakeCaseColumnsRoundTrip() throws {
        struct Player: Codable, FetchableRecord, PersistableRecord, Equatable {
            static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
            static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
            var playerId: Int
            var fullName: String
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player(player_id INTEGER PRIMARY KEY, full_name TEXT)")
            try Player(playerId: 1, fullName: "Arthur").insert(db)
            XCTAssertEqual(try Row.fetchAll(db, sql: "SELECT player_id, full_name FROM player"), [["player_id": 1, "full_name": "Arthur"]])
            XCTAssertEqual(try Player.fetchAll(db), [Player(playerId: 1, fullName: "Arthur")])
            try Player(playerId: 1, fullName: "Barbara").update(db)
            XCTAssertEqual(try String.fetchOne(db, sql: "SELECT full_name FROM player"), "Barbara")
        }
        XCTAssertEqual(try Player(playerId: 1, fullName: "A").databaseDictionary, ["player_id": 1.databaseValue, "full_name": "A".databaseValue])
    }

    func testCustomColumnStrategy() throws {
        struct Item: Encodable, EncodableRecord {
            static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.custom { "c_" + $0.stringValue }
            var name: String
        }
        XCTAssertEqual(try Item(name: "x").databaseDictionary, ["c_name": "x".databaseValue])
    }

    func testDateStrategiesStoreTheirValues() throws {
        struct Event: Encodable, EncodableRecord {
            var plain: Date
            var unix: Date
            var seconds: Date
            var millis: Date
            var reference: Date
            var iso: Date
            var custom: Date
            static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
                switch column {
                case "unix": return .timeIntervalSince1970
                case "seconds": return .secondsSince1970
                case "millis": return .millisecondsSince1970
                case "reference": return .timeIntervalSinceReferenceDate
                case "iso": return .iso8601
                case "custom": return .custom { _ in nil }
                default: return .deferredToDate
                }
            }
        }
        let date = Date(timeIntervalSince1970: 1_000_000_000.5)
        let values = try Event(plain: date, unix: date, seconds: date, millis: date, reference: date, iso: date, custom: date).databaseDictionary
        XCTAssertEqual(values["plain"], "2001-09-09 01:46:40.500".databaseValue)
        XCTAssertEqual(values["unix"], 1_000_000_000.5.databaseValue)
        XCTAssertEqual(values["seconds"], 1_000_000_000.databaseValue)
        XCTAssertEqual(values["millis"], 1_000_000_000_500.databaseValue)
        XCTAssertEqual(values["reference"], date.timeIntervalSinceReferenceDate.databaseValue)
        XCTAssertEqual(values["iso"], "2001-09-09T01:46:40Z".databaseValue)
        XCTAssertEqual(values["custom"], .null)
    }

    func testUUIDAndDataStrategies() throws {
        struct Item: Encodable, EncodableRecord {
            var upper: UUID
            var lower: UUID
            var blob: UUID
            var text: Data
            var bytes: Data
            static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
                switch column {
                case "upper": return .uppercaseString
                case "lower": return .lowercaseString
                default: return .deferredToUUID
                }
            }
            static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy {
                column == "text" ? .text : .deferredToData
            }
        }
        let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        let values = try Item(upper: uuid, lower: uuid, blob: uuid, text: Data("abc".utf8), bytes: Data([1])).databaseDictionary
        XCTAssertEqual(values["upper"], "E621E1F8-C36C-495A-93FC-0C247A3E6E5F".databaseValue)
        XCTAssertEqual(values["lower"], "e621e1f8-c36c-495a-93fc-0c247a3e6e5f".databaseValue)
        XCTAssertEqual(values["blob"], uuid.databaseValue)
        XCTAssertEqual(values["text"], "abc".databaseValue)
        XCTAssertEqual(values["bytes"], Data([1]).databaseValue)
        // Data that is not UTF-8 can not be stored as text.
        XCTAssertThrowsError(try Item(upper: uuid, lower: uuid, blob: uuid, text: Data([0xFF]), bytes: Data()).databaseDictionary)
    }

    func testJSONColumnsStoreWhatGRDBStores() throws {
        struct Nested: Codable {
            var date: Date
            var bytes: Data
            var path: String
        }
        struct Item: Encodable, EncodableRecord { var nested: Nested }
        let values = try Item(nested: Nested(date: Date(timeIntervalSince1970: 1), bytes: Data([1, 2]), path: "a/b")).databaseDictionary
        XCTAssertEqual(values["nested"], #"{"bytes":"AQI=","date":1000,"path":"a\/b"}"#.databaseValue)
    }

    func testRecordJSONEncoderAndUserInfo() throws {
        struct Nested: Codable { var date: Date }
        struct Item: Encodable, EncodableRecord {
            static let key = CodingUserInfoKey(rawValue: "tag")!
            static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { [key: "from the record"] }
            static func databaseJSONEncoder(for column: String) -> JSONEncoder {
                let encoder = JSONEncoder()
                encoder.dateEncodingStrategy = .secondsSince1970
                return encoder
            }
            var nested: Nested
            enum CodingKeys: String, CodingKey { case nested, tag }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(nested, forKey: .nested)
                try container.encode(encoder.userInfo[Self.key] as? String ?? "none", forKey: .tag)
            }
        }
        let values = try Item(nested: Nested(date: Date(timeIntervalSince1970: 10))).databaseDictionary
        XCTAssertEqual(values["nested"], #"{"date":10}"#.databaseValue)
        XCTAssertEqual(values["tag"], "from the record".databaseValue)
    }
}
