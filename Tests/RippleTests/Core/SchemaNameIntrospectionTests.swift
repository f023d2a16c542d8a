import Foundation
import Ripple
import XCTest

final class SchemaNameIntrospectionTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory(self)
    }

    /// A main database and an attached one, both with a table `t` of different columns.
    private func makeAttachedQueue() throws -> DatabaseQueue {
        let attached = try DatabaseQueue(path: directory.appendingPathComponent("attached.sqlite").path)
        try attached.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE t (code TEXT PRIMARY KEY, parentId INTEGER REFERENCES parent(id), label TEXT UNIQUE) WITHOUT ROWID;
                    CREATE TABLE parent (id INTEGER PRIMARY KEY);
                    CREATE VIEW v AS SELECT 1;
                    """)
        }
        let main = try DatabaseQueue(path: directory.appendingPathComponent("main.sqlite").path)
        try main.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute(sql: "ATTACH DATABASE ? AS attached", arguments: [attached.path])
        }
        return main
    }

    func testColumnsAndPrimaryKeyOfEachSchema() throws {
        try makeAttachedQueue().read { db in
            XCTAssertEqual(try db.columns(in: "t").map(\.name), ["id", "name"])
            XCTAssertEqual(try db.columns(in: "t", in: "main").map(\.name), ["id", "name"])
            XCTAssertEqual(try db.columns(in: "t", in: "attached").map(\.name), ["code", "parentId", "label"])
            XCTAssertEqual(try db.primaryKey("t").rowIDColumn, "id")
            let attachedKey = try db.primaryKey("t", in: "attached")
            XCTAssertEqual(attachedKey.columns, ["code"])
            XCTAssertTrue(attachedKey.isWithoutRowID)
        }
    }

    func testIndexesForeignKeysAndExistenceInASchema() throws {
        try makeAttachedQueue().read { db in
            XCTAssertEqual(try db.indexes(on: "t", in: "main"), [])
            let indexes = try db.indexes(on: "t", in: "attached")
            XCTAssertEqual(Set(indexes.map(\.origin)), [.uniqueConstraint, .primaryKeyConstraint])
            XCTAssertEqual(try db.foreignKeys(on: "t", in: "attached").map(\.destinationTable), ["parent"])
            XCTAssertEqual(try db.foreignKeys(on: "t", in: "main"), [])
            XCTAssertTrue(try db.tableExists("parent"))
            XCTAssertFalse(try db.tableExists("parent", in: "main"))
            XCTAssertTrue(try db.tableExists("parent", in: "attached"))
            XCTAssertTrue(try db.viewExists("v", in: "ATTACHED"))
            XCTAssertFalse(try db.viewExists("v", in: "main"))
        }
    }

    func testUnknownSchemaThrows() throws {
        try makeAttachedQueue().read { db in
            for body in [
                { _ = try db.columns(in: "t", in: "nope") }, { _ = try db.indexes(on: "t", in: "nope") },
                { _ = try db.primaryKey("t", in: "nope") }, { _ = try db.tableExists("t", in: "nope") },
            ] {
                XCTAssertThrowsError(try body()) { error in
                    XCTAssertEqual((error as? DatabaseError)?.message, "no such schema: nope")
                }
            }
        }
    }

    func testViewHasNoPrimaryKeyWithoutSchemaSource() throws {
        try DatabaseQueue().write { db in
            try db.execute(sql: "CREATE VIEW v AS SELECT 1 AS a")
            XCTAssertThrowsError(try db.primaryKey("v")) { error in
                XCTAssertEqual((error as? DatabaseError)?.message, "database view v has no primary key")
            }
        }
    }

    func testIndexOnExpressionIsLeftOut() throws {
        try DatabaseQueue().write { db in
            try db.execute(
                sql: """
                    CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT);
                    CREATE INDEX byLength ON player (LENGTH(name));
                    CREATE INDEX byName ON player (name);
                    """)
            XCTAssertEqual(try db.indexes(on: "player").map(\.name), ["byName"])
            XCTAssertEqual(try db.indexes(on: "player").map(\.origin), [.createIndex])
        }
    }

    func testTableHasUniqueKey() throws {
        try DatabaseQueue().write { db in
            try db.execute(
                sql: """
                    CREATE TABLE persons (id INTEGER PRIMARY KEY, name TEXT, email TEXT UNIQUE);
                    CREATE TABLE pairs (a INTEGER NOT NULL, b INTEGER NOT NULL, PRIMARY KEY (a, b)) WITHOUT ROWID;
                    CREATE VIEW personView AS SELECT * FROM persons;
                    """)
            XCTAssertTrue(try db.table("persons", hasUniqueKey: ["rowid"]))
            XCTAssertTrue(try db.table("persons", hasUniqueKey: ["ID"]))
            XCTAssertTrue(try db.table("persons", hasUniqueKey: ["email", "name"]))
            XCTAssertFalse(try db.table("persons", hasUniqueKey: ["name"]))
            XCTAssertFalse(try db.table("persons", hasUniqueKey: []))
            XCTAssertTrue(try db.table("pairs", hasUniqueKey: ["b", "a"]))
            XCTAssertFalse(try db.table("pairs", hasUniqueKey: ["a"]))
            XCTAssertFalse(try db.table("pairs", hasUniqueKey: ["rowid"]))
            XCTAssertFalse(try db.table("personView", hasUniqueKey: ["id"]))
        }
    }
}
