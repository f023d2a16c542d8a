import Foundation
import XCTest

@testable import Ripple

/// Introspection that lists the schemas keeps the schema cache: the facts read once are
/// not read again.
final class SchemaCacheIntrospectionTests: XCTestCase {
    func testListingSchemasKeepsTheSchemaCache() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            _ = try db.primaryKey("player")
            _ = try db.columns(in: "player")
            // Lists the schemas (main, temp, attached databases) to find the table.
            XCTAssertTrue(try db.tableExists("player"))
            XCTAssertTrue(try db.tableExists("team"))
            var traced: [String] = []
            db.trace { traced.append($0.expandedDescription) }
            _ = try db.primaryKey("player")
            _ = try db.columns(in: "player")
            db.trace(options: [], nil)
            XCTAssertEqual(traced, [], "the schema was not read again")
        }
    }

    func testPrimaryKeyColumnInfos() throws {
        try DatabaseQueue().write { db in
            try db.execute(
                sql: """
                    CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT);
                    CREATE TABLE citizenship (citizenId INTEGER NOT NULL, code TEXT NOT NULL DEFAULT 'FR', PRIMARY KEY (code, citizenId)) WITHOUT ROWID;
                    CREATE TABLE note (content TEXT);
                    """)
            let item = try db.primaryKey("item")
            XCTAssertEqual(item.columnInfos?.map(\.name), ["id"])
            XCTAssertEqual(item.columnInfos?.map(\.type), ["INTEGER"])
            XCTAssertTrue(item.tableHasRowID)
            let citizenship = try db.primaryKey("citizenship")
            XCTAssertEqual(citizenship.columnInfos?.map(\.name), ["code", "citizenId"], "in the order of the key")
            XCTAssertEqual(citizenship.columnInfos?.map(\.defaultValueSQL), ["'FR'", nil])
            XCTAssertEqual(citizenship.columnInfos?.map(\.isNotNull), [true, true])
            XCTAssertFalse(citizenship.tableHasRowID)
            let note = try db.primaryKey("note")
            XCTAssertNil(note.columnInfos, "the hidden rowid")
            XCTAssertEqual(note.columns, ["rowid"])
        }
    }
}
