import XCTest

@testable import Ripple

/// `Database.schemaSource` and `withSchemaSource(_:execute:)`: migrations read the schema
/// without the application's schema source.
final class MigrationSchemaSourceTests: XCTestCase {
    private struct ViewKeys: DatabaseSchemaSource {
        func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
            ["id"]
        }
    }

    private func makeQueue() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.schemaSource = ViewKeys()
        return try DatabaseQueue(configuration: configuration)
    }

    func testTheConfigurationsSourceIsInUseOutsideOfMigrations() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            XCTAssertTrue(db.schemaSource is ViewKeys)
            try db.execute(sql: "CREATE VIEW v AS SELECT 1 AS id")
            XCTAssertEqual(try db.primaryKey("v").columns, ["id"])
        }
        XCTAssertNil(try DatabaseQueue().read { $0.schemaSource })
    }

    func testMigrationsRunWithoutTheSchemaSource() throws {
        let dbQueue = try makeQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("A") { db in
            try db.execute(sql: "CREATE VIEW v AS SELECT 1 AS id")
            XCTAssertNil(db.schemaSource)
            XCTAssertThrowsError(try db.primaryKey("v"))
        }
        try migrator.migrate(dbQueue)
        try dbQueue.read { db in
            // Back, and what the migration learned of the schema is forgotten.
            XCTAssertNotNil(db.schemaSource)
            XCTAssertEqual(try db.primaryKey("v").columns, ["id"])
        }
        migrator.registerMigration("B") { db in
            XCTAssertNil(db.schemaSource)
            XCTAssertThrowsError(try db.primaryKey("v"))
        }
        try migrator.migrate(dbQueue)
    }

    func testAMigrationMayUseASchemaSource() throws {
        let dbQueue = try makeQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("A") { db in
            try db.execute(sql: "CREATE VIEW v AS SELECT 1 AS id")
            try db.withSchemaSource(ViewKeys()) {
                XCTAssertEqual(try db.primaryKey("v").columns, ["id"])
            }
            XCTAssertThrowsError(try db.primaryKey("v"))
        }
        try migrator.migrate(dbQueue)
    }

    func testWithSchemaSourceForgetsTheSchemaBeforeAndAfter() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE VIEW v AS SELECT 1 AS id")
            XCTAssertThrowsError(try db.primaryKey("v"))
            try db.withSchemaSource(ViewKeys()) {
                XCTAssertEqual(try db.primaryKey("v").columns, ["id"])
            }
            XCTAssertNil(db.schemaSource)
            XCTAssertThrowsError(try db.primaryKey("v"))
        }
    }

    func testAsyncMigrateCompletesInTheAccessBeforeLaterWrites() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("A") { db in try db.execute(sql: "CREATE TABLE t(a)") }
        let migrated = expectation(description: "migrated")
        let written = expectation(description: "written")
        migrator.asyncMigrate(dbQueue) { result in
            do {
                let db = try result.get()
                XCTAssertTrue(try db.tableExists("t"))
            } catch {
                XCTFail("\(error)")
            }
            migrated.fulfill()
        }
        // Scheduled after: finds the table.
        dbQueue.asyncWrite({ db in try db.execute(sql: "INSERT INTO t VALUES (1)") }) { _, result in
            if case .failure(let error) = result { XCTFail("\(error)") }
            written.fulfill()
        }
        wait(for: [migrated, written], timeout: 10, enforceOrder: true)

        var failing = DatabaseMigrator()
        failing.registerMigration("B") { db in try db.execute(sql: "CREATE TABLE t(a)") }
        let failed = expectation(description: "failed")
        failing.asyncMigrate(dbQueue) { result in
            if case .success = result { XCTFail("expected an error") }
            failed.fulfill()
        }
        wait(for: [failed], timeout: 10)
    }
}
