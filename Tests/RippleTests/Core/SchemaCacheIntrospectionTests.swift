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
}
