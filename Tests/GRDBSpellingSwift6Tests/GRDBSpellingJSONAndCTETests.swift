// Compiled in Swift 6 and Swift 5 language modes (GRDBSpellingSwift5Tests links here):
// JSON columns and functions, and common table expressions, spelled as GRDB's documentation and tests write them.
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
            let countryCodes: [String] =
                try Player
                .select(Player.Columns.address["countryCode"], as: String.self)
                .distinct()
                .fetchAll(db)
            XCTAssertEqual(countryCodes, ["FR"])

            let city = try String.fetchOne(db, Player.select(Column("address").asJSON["city"], as: String.self))
            XCTAssertEqual(city, "Paris")

            let elements: [any SQLExpressible] = [JSONColumn("address"), Column("id")]
            let array = try String.fetchOne(db, Player.select(Database.jsonArray(elements), as: String.self))
            XCTAssertEqual(array, #"[{"countryCode":"FR","city":"Paris"},1]"#)

            let object = try String.fetchOne(
                db,
                Player.select(
                    Database.jsonObject(
                        [
                            "a": 1,
                            "b": "[1, 2]".databaseValue.asJSON,
                        ] as KeyValuePairs), as: String.self))
            XCTAssertEqual(object, #"{"a":1,"b":[1,2]}"#)

            let names = try String.fetchOne(
                db,
                Player.select(
                    Database.jsonGroupArray(
                        Player.Columns.address.jsonExtract(atPath: "$.city"),
                        filter: Column("id") > 0),
                    as: String.self))
            XCTAssertEqual(names, #"["Paris"]"#)
        }
    }

    func testCommonTableExpressions() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            let answer = CommonTableExpression(named: "answer", sql: "SELECT 42 AS value")
            let row = try answer.all().with(answer).fetchOne(db)
            XCTAssertEqual(row, ["value": 42])

            struct Answer: Decodable, FetchableRecord, Equatable { var value: Int }
            let typed = CommonTableExpression<Answer>(named: "answer", sql: "SELECT 42 AS value")
            XCTAssertEqual(try typed.all().with(typed).fetchOne(db), Answer(value: 42))

            let counter = CommonTableExpression<Int>(
                recursive: true,
                named: "counter",
                columns: ["x"],
                literal: "VALUES(\(0)) UNION ALL SELECT x+1 FROM counter WHERE x < \(3)")
            XCTAssertEqual(try counter.all().with(counter).fetchAll(db), [0, 1, 2, 3])

            let ids = CommonTableExpression(named: "ids", request: Player.select(Column("id")))
            _ = CommonTableExpression(named: "foo", request: SQLRequest<Void>("SELECT 1"))
            try Player.with(ids).filter(ids.contains(Column("id"))).deleteAll(db)
            XCTAssertEqual(try Player.fetchCount(db), 0)
        }
    }
}
