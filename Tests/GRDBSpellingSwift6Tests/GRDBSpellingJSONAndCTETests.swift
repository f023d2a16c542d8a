// Compiled in Swift 6 and Swift 5 language modes (GRDBSpellingSwift5Tests links here):
// JSON columns and functions, spelled as GRDB's documentation and tests write them.
import Foundation
import Ripple
import XCTest

private struct Player: Codable, TableRecord, FetchableRecord, PersistableRecord {
    var id: Int64
    var address: String

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let address = JSONColumn(CodingKeys.address)
    }
}

final class GRDBSpellingJSONAndCTETests: XCTestCase {
    private func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("address", .jsonText).notNull()
            }
            try Player(id: 1, address: #"{"countryCode":"FR","city":"Paris"}"#).insert(db)
        }
        return dbQueue
    }

    func testJSONColumnsAndFunctions() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db in
            let countryCodes: [String] = try Player
                .select(Player.Columns.address["countryCode"], as: String.self)
                .distinct()
                .fetchAll(db)
            XCTAssertEqual(countryCodes, ["FR"])

            let city = try String.fetchOne(db, Player.select(Column("address").asJSON["city"], as: String.self))
            XCTAssertEqual(city, "Paris")

            let elements: [any SQLExpressible] = [JSONColumn("address"), Column("id")]
            let array = try String.fetchOne(db, Player.select(Database.jsonArray(elements), as: String.self))
            XCTAssertEqual(array, #"[{"countryCode":"FR","city":"Paris"},1]"#)

            let object = try String.fetchOne(db, Player.select(Database.jsonObject([
                "a": 1,
                "b": "[1, 2]".databaseValue.asJSON,
            ] as KeyValuePairs), as: String.self))
            XCTAssertEqual(object, #"{"a":1,"b":[1,2]}"#)

            let names = try String.fetchOne(db, Player.select(
                Database.jsonGroupArray(Player.Columns.address.jsonExtract(atPath: "$.city"),
                                        filter: Column("id") > 0),
                as: String.self))
            XCTAssertEqual(names, #"["Paris"]"#)
        }
    }
}
