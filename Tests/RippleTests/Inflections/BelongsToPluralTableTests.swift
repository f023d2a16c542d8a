import Ripple
import XCTest

/// `belongsTo` finds the referenced table by its singular or plural name.
final class BelongsToPluralTableTests: XCTestCase {
    private func foreignKeys(on table: String, _ db: Database) throws -> [String: String] {
        let keys = try db.foreignKeys(on: table)
        return Dictionary(
            uniqueKeysWithValues: keys.flatMap { key in
                key.mapping.map { ($0.origin, key.destinationTable) }
            })
    }

    func testPluralTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "teams") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "people") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "players") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("team")
                t.belongsTo("coach", inTable: "people")
                t.belongsTo("person")
            }
            XCTAssertEqual(try foreignKeys(on: "players", db), ["teamId": "teams", "coachId": "people", "personId": "people"])
        }
    }

    func testSingularTableComesFirst() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "team") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "teams") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "player") { t in t.belongsTo("team") }
            XCTAssertEqual(try foreignKeys(on: "player", db), ["teamId": "team"])
        }
    }

    func testSelfReferenceByTheSingularOfThePluralTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "players") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("player")
            }
            XCTAssertEqual(try foreignKeys(on: "players", db), ["playerId": "players"])
        }
    }

    func testCustomInflections() throws {
        let original = Inflections.default
        defer { Inflections.default = original }
        Inflections.default.irregularSuffix("cactus", "cacti")
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "cacti") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "pots") { t in t.belongsTo("cactus") }
            XCTAssertEqual(try foreignKeys(on: "pots", db), ["cactusId": "cacti"])
        }
    }

    func testMissingTableThrows() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            XCTAssertThrowsError(try db.create(table: "players") { t in t.belongsTo("team") }) { error in
                XCTAssertTrue(error is DatabaseError, "\(error)")
            }
            XCTAssertFalse(try db.tableExists("players"))
        }
    }
}
