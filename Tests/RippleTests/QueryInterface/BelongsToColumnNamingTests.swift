import Ripple
import XCTest

/// The columns and constraints of `belongsTo`, named and ordered as GRDB 7 makes them.
final class BelongsToColumnNamingTests: XCTestCase {
    private func sql(of table: String, _ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [table])
    }

    func testColumnsAreNamedAfterTheReferencedKey() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "country") { t in t.primaryKey("code", .text) }
            try db.create(table: "tag") { t in t.column("label", .text) }
            try db.create(table: "city") { t in
                t.belongsTo("country")
                t.belongsTo("tag")
            }
            XCTAssertEqual(try db.columns(in: "city").map(\.name), ["countryCode", "tagId"])
            let keys = try db.foreignKeys(on: "city")
            XCTAssertEqual(Set(keys.map(\.destinationTable)), ["country", "tag"])
        }
    }

    func testCompositeKeysKeepTheirOrderOfDeclaration() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "a") { t in
                t.primaryKey {
                    t.column("x")
                    t.column("y")
                }
            }
            try db.create(table: "b") { t in
                t.primaryKey {
                    t.column("x")
                    t.column("y")
                }
            }
            try db.create(table: "c") { t in
                t.belongsTo("a")
                t.belongsTo("b")
            }
            let sql = try XCTUnwrap(try sql(of: "c", db))
            let first = try XCTUnwrap(sql.range(of: "FOREIGN KEY (\"aX\", \"aY\")"))
            let second = try XCTUnwrap(sql.range(of: "FOREIGN KEY (\"bX\", \"bY\")"))
            XCTAssertLessThan(first.lowerBound, second.lowerBound, sql)
        }
    }
}
