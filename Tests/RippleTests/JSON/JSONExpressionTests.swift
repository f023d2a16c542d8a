import XCTest

@testable import Ripple

/// `JSONColumn`, `asJSON` and the JSON functions of `Database`.
final class JSONExpressionTests: XCTestCase {
    private func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.column("name", .text)
                t.column("info", .jsonText)
            }
            try db.execute(sql: #"INSERT INTO player VALUES ('Arthur', '{"age":42,"tags":["a","b"]}')"#)
        }
        return dbQueue
    }

    private func fetch(_ dbQueue: DatabaseQueue, _ expression: some SQLExpressible) throws -> String? {
        try dbQueue.read { db in
            try String.fetchOne(db, Table<Row>("player").select(expression.sqlExpression, as: String.self))
        }
    }

    private func fetchInt(_ dbQueue: DatabaseQueue, _ expression: some SQLExpressible) throws -> Int? {
        try dbQueue.read { db in
            try Int.fetchOne(db, Table<Row>("player").select(expression.sqlExpression, as: Int.self))
        }
    }

    func testJSONValuesAreEmbeddedAsJSONAndPlainColumnsAsStrings() throws {
        let dbQueue = try makeQueue()
        XCTAssertEqual(
            try fetch(dbQueue, Database.jsonArray([JSONColumn("info"), Column("name")] as [any SQLExpressible])),
            #"[{"age":42,"tags":["a","b"]},"Arthur"]"#)
        XCTAssertEqual(
            try fetch(dbQueue, Database.jsonArray([Column("info")])),
            #"["{\"age\":42,\"tags\":[\"a\",\"b\"]}"]"#)
        XCTAssertEqual(
            try fetch(dbQueue, Database.jsonArray([Column("info").asJSON])),
            #"[{"age":42,"tags":["a","b"]}]"#)
        XCTAssertEqual(try fetch(dbQueue, Database.jsonArray(["[1]".databaseValue.asJSON])), "[[1]]")
    }

    func testJSONFunctionResultsAreNotWrappedAgain() {
        let info = JSONColumn("info")
        XCTAssertEqual(Database.jsonArray([info]).description, #"JSON_ARRAY(JSON("info"))"#)
        XCTAssertEqual(Database.jsonArray([Database.json(info).asJSON]).description, #"JSON_ARRAY(JSON("info"))"#)
        XCTAssertEqual(
            Database.jsonArray([info.jsonRepresentation(atPath: "a").asJSON]).description,
            #"JSON_ARRAY("info" -> "a")"#)
        XCTAssertEqual(Database.jsonArray([info["a"].asJSON]).description, #"JSON_ARRAY(JSON("info" ->> "a"))"#)
    }

    func testSubcomponentAccess() throws {
        let dbQueue = try makeQueue()
        let info = JSONColumn("info")
        XCTAssertEqual(try fetchInt(dbQueue, info["age"]), 42)
        XCTAssertEqual(try fetch(dbQueue, info.jsonRepresentation(atPath: "tags")), #"["a","b"]"#)
        XCTAssertEqual(try fetch(dbQueue, info.jsonExtract(atPath: "$.tags[1]")), "b")
        XCTAssertEqual(try fetch(dbQueue, info.jsonExtract(atPaths: ["$.age", "$.tags[0]"])), #"[42,"a"]"#)
        XCTAssertEqual(try fetchInt(dbQueue, Database.jsonArrayLength(info, atPath: "$.tags")), 2)
        XCTAssertEqual(try fetch(dbQueue, Database.jsonType(info)), "object")
        XCTAssertEqual(try fetchInt(dbQueue, Database.jsonIsValid(Column("name"))), 0)
    }

    func testModificationsAndObjects() throws {
        let dbQueue = try makeQueue()
        let info = JSONColumn("info")
        XCTAssertEqual(try fetch(dbQueue, Database.jsonSet(info, ["$.age": 43])), #"{"age":43,"tags":["a","b"]}"#)
        XCTAssertEqual(try fetch(dbQueue, Database.jsonRemove(info, atPaths: ["$.age", "$.tags"])), "{}")
        XCTAssertEqual(try fetch(dbQueue, Database.jsonPatch(info, with: #"{"tags":null}"#)), #"{"age":42}"#)
        XCTAssertEqual(
            try fetch(dbQueue, Database.jsonObject(["name": Column("name"), "info": info] as KeyValuePairs<String, any SQLExpressible>)),
            #"{"name":"Arthur","info":{"age":42,"tags":["a","b"]}}"#)
        XCTAssertEqual(try fetch(dbQueue, Database.jsonQuote(Column("name"))), #""Arthur""#)
    }

    func testAggregatesWithFilter() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player VALUES ('Barbara', '[]')") }
        let name = Column("name")
        XCTAssertEqual(
            Database.jsonGroupArray(name, filter: length(name) > 6).description,
            #"JSON_GROUP_ARRAY("name") FILTER (WHERE LENGTH("name") > 6)"#)
        XCTAssertEqual(try fetch(dbQueue, Database.jsonGroupArray(name, filter: length(name) > 6)), #"["Barbara"]"#)
        XCTAssertEqual(
            try fetch(dbQueue, Database.jsonGroupObject(key: name, value: JSONColumn("info"))),
            #"{"Arthur":{"age":42,"tags":["a","b"]},"Barbara":[]}"#)
    }

    func testMalformedJSONThrows() throws {
        let dbQueue = try makeQueue()
        XCTAssertThrowsError(try fetch(dbQueue, Database.jsonArray(["{foo".databaseValue.asJSON]))) { error in
            XCTAssertTrue(error is DatabaseError, "\(error)")
        }
    }

    func testJSONValuesAreSelectableAndIndexable() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            // A JSON text column is a TEXT column.
            XCTAssertEqual(try db.columns(in: "player").map(\.type), ["TEXT", "TEXT"])
            try db.create(index: "player_on_age", on: "player", expressions: [JSONColumn("info").jsonExtract(atPath: "$.age")])
            let indexSQL = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'player_on_age'")
            XCTAssertEqual(indexSQL, #"CREATE INDEX "player_on_age" ON "player"(JSON_EXTRACT("info", '$.age'))"#)
            let row = try Row.fetchOne(db, Table<Row>("player").select([Column("name").asJSON, JSONColumn("info")]).order(JSONColumn("info")))
            XCTAssertEqual(row?[0], "Arthur")
        }
    }
}
