import XCTest

@testable import Ripple

/// A table that shadows another of the same name (one of `main` shadows one of an attached
/// database, a temporary table one of `main`) is read by statements compiled before it
/// was created: cached statements are forgotten when the schema changes, since SQLite
/// compiles a statement again only for changes of the schema it reads.
final class SchemaShadowingTests: XCTestCase {
    func testMainShadowsAnAttachedDatabaseAndTempShadowsMain() throws {
        let attachedPath = try makeTemporaryDatabasePath(self, name: "attached.sqlite")
        try DatabaseQueue(path: attachedPath).write { db in
            try db.execute(sql: "CREATE TABLE item (attachedColumn TEXT); INSERT INTO item VALUES ('attached')")
        }
        let dbQueue = try DatabaseQueue(path: makeTemporaryDatabasePath(self))
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(literal: "ATTACH DATABASE \(attachedPath) AS attached")
            XCTAssertEqual(try String.fetchOne(db, sql: "SELECT * FROM item"), "attached")
            XCTAssertEqual(try db.columns(in: "item").first?.name, "attachedColumn")

            try db.execute(sql: "CREATE TABLE item (mainColumn TEXT); INSERT INTO item VALUES ('main')")
            XCTAssertEqual(try String.fetchOne(db, sql: "SELECT * FROM item"), "main")
            XCTAssertEqual(try db.columns(in: "item").first?.name, "mainColumn")

            try db.execute(sql: "CREATE TEMP TABLE item (tempColumn TEXT); INSERT INTO item VALUES ('temp')")
            XCTAssertEqual(try String.fetchOne(db, sql: "SELECT * FROM item"), "temp")

            try db.execute(sql: "DROP TABLE temp.item")
            XCTAssertEqual(try String.fetchOne(db, sql: "SELECT * FROM item"), "main")
            try db.execute(sql: "DROP TABLE main.item")
            XCTAssertEqual(try String.fetchOne(db, sql: "SELECT * FROM item"), "attached")
            XCTAssertEqual(try db.columns(in: "item").first?.name, "attachedColumn")
        }
    }
}
