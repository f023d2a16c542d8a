import Foundation
import XCTest

@testable import Ripple

/// Primary keys of views, told by the configuration's schema source.
final class DatabaseSchemaSourceTests: XCTestCase {
    struct ViewKeys: DatabaseSchemaSource {
        func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
            view.name == "playerView" ? ["id"] : nil
        }
    }

    struct Fallback: DatabaseSchemaSource {
        func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
            ["name"]
        }
    }

    struct PlayerView: Codable, FetchableRecord, TableRecord, Equatable {
        static let databaseTableName = "playerView"
        var id: Int64
        var name: String
    }

    private func makeQueue(_ source: (any DatabaseSchemaSource)?) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.schemaSource = source
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT);
                    INSERT INTO player VALUES (1, 'Arthur'), (2, 'Barbara');
                    CREATE VIEW playerView AS SELECT * FROM player;
                    CREATE VIEW otherView AS SELECT * FROM player;
                    """)
        }
        return dbQueue
    }

    func testViewsGetTheirPrimaryKeysFromTheSource() throws {
        try makeQueue(ViewKeys()).read { db in
            XCTAssertEqual(try db.primaryKey("playerView").columns, ["id"])
            XCTAssertEqual(try PlayerView.find(db, key: 2), PlayerView(id: 2, name: "Barbara"))
            XCTAssertEqual(try PlayerView.fetchAll(db, keys: [1]).map(\.name), ["Arthur"])
            XCTAssertThrowsError(try db.primaryKey("otherView"), "the source does not know it")
            XCTAssertEqual(try db.primaryKey("player").columns, ["id"], "tables keep their own")
        }
    }

    func testAViewsKeyAsGRDBDescribesIt() throws {
        struct Empty: DatabaseSchemaSource {
            func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? { [] }
        }
        try makeQueue(ViewKeys()).read { db in
            let primaryKey = try db.primaryKey("playerView")
            XCTAssertEqual(primaryKey.columnInfos?.map(\.name), ["id"])
            XCTAssertEqual(primaryKey.columnInfos?.map(\.type), ["INTEGER"])
            XCTAssertNil(primaryKey.rowIDColumn)
            XCTAssertFalse(primaryKey.isRowID)
            XCTAssertFalse(primaryKey.tableHasRowID)
            let error = try XCTUnwrap(assertDatabaseError(.SQLITE_ERROR) { try db.primaryKey("otherView") })
            XCTAssertEqual(error.message, "database view otherView has no primary key")
        }
        try makeQueue(Empty()).read { db in
            let error = try XCTUnwrap(assertDatabaseError(.SQLITE_ERROR) { try db.primaryKey("playerView") })
            XCTAssertEqual(error.description, "SQLite error 1: database view playerView has no primary key")
        }
    }

    func testChainedSourcesAndNoSource() throws {
        try makeQueue(ViewKeys().then(Fallback())).read { db in
            XCTAssertEqual(try db.primaryKey("playerView").columns, ["id"], "the first source answers first")
            XCTAssertEqual(try db.primaryKey("otherView").columns, ["name"])
        }
        try makeQueue(nil).read { db in
            XCTAssertThrowsError(try PlayerView.find(db, key: 1))
        }
        XCTAssertEqual(DatabaseSchemaID.temp.schemaTableName, "sqlite_temp_master")
        XCTAssertEqual(DatabaseSchemaID.attached("aux").name, "aux")
    }
}
