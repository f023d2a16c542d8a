import CSQLite
import Foundation
import XCTest

@testable import Ripple

final class DatabaseMigratorTests: XCTestCase {
    private func makeMigrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: "CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT)")
        }
        migrator.registerMigration("v2") { db in
            try db.execute(sql: "CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id), title TEXT)")
        }
        migrator.registerMigration("v3") { db in
            try db.execute(sql: "ALTER TABLE author ADD COLUMN birthYear INTEGER")
        }
        return migrator
    }

    func testMigrationsRunOnceInOrder() throws {
        let dbQueue = try DatabaseQueue()
        let migrator = makeMigrator()
        XCTAssertEqual(migrator.migrations, ["v1", "v2", "v3"])
        try migrator.migrate(dbQueue)
        try migrator.migrate(dbQueue)  // nothing left to run: v1 would fail if run again
        try dbQueue.read { db in
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid"), ["v1", "v2", "v3"])
            XCTAssertEqual(try migrator.appliedMigrations(db), ["v1", "v2", "v3"])
            XCTAssertTrue(try migrator.hasCompletedMigrations(db))
            XCTAssertFalse(try migrator.hasBeenSuperseded(db))
            XCTAssertTrue(try db.tableExists("book"))
        }
    }

    func testMigrateUpToAMigration() throws {
        let dbQueue = try DatabaseQueue()
        let migrator = makeMigrator()
        try migrator.migrate(dbQueue, upTo: "v2")
        try dbQueue.read { db in
            XCTAssertEqual(try migrator.appliedMigrations(db), ["v1", "v2"])
            XCTAssertEqual(try migrator.completedMigrations(db), ["v1", "v2"])
            XCTAssertFalse(try migrator.hasCompletedMigrations(db))
        }
        try migrator.migrate(dbQueue, upTo: "v2")
        try migrator.migrate(dbQueue)
        try dbQueue.read { db in XCTAssertTrue(try migrator.hasCompletedMigrations(db)) }
    }

    func testAMigrationThatThrowsIsRolledBackAndStopsTheOthers() throws {
        struct Failure: Error {}
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE a (id INTEGER PRIMARY KEY)") }
        migrator.registerMigration("v2") { db in
            try db.execute(sql: "CREATE TABLE b (id INTEGER PRIMARY KEY); INSERT INTO a DEFAULT VALUES")
            throw Failure()
        }
        migrator.registerMigration("v3") { db in try db.execute(sql: "CREATE TABLE c (id INTEGER PRIMARY KEY)") }
        XCTAssertThrowsError(try migrator.migrate(dbQueue)) { XCTAssertTrue($0 is Failure) }
        try dbQueue.read { db in
            XCTAssertEqual(try migrator.appliedMigrations(db), ["v1"])
            XCTAssertFalse(try db.tableExists("b"), "v2 rolled back")
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM a"), 0)
            XCTAssertFalse(try db.tableExists("c"), "v3 did not run")
        }
    }

    func testDeferredForeignKeyChecksAllowRecreatingATableAndRejectViolations() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = makeMigrator()
        migrator.registerMigration("seed") { db in
            try db.execute(sql: "INSERT INTO author (id, name) VALUES (1, 'Herman'); INSERT INTO book (authorId, title) VALUES (1, 'Moby-Dick')")
        }
        // Recreating the parent table drops it for a moment: fine with deferred checks.
        migrator.registerMigration("recreate author") { db in
            try db.execute(
                sql: """
                    CREATE TABLE new_author (id INTEGER PRIMARY KEY, name TEXT NOT NULL, birthYear INTEGER);
                    INSERT INTO new_author SELECT id, name, birthYear FROM author;
                    DROP TABLE author;
                    ALTER TABLE new_author RENAME TO author;
                    """)
        }
        migrator.registerMigration("orphan") { db in
            try db.execute(sql: "INSERT INTO book (authorId, title) VALUES (42, 'Nobody wrote this')")
        }
        XCTAssertThrowsError(try migrator.migrate(dbQueue)) { error in
            let error = error as? DatabaseError
            XCTAssertEqual(error?.extendedResultCode, .SQLITE_CONSTRAINT_FOREIGNKEY)
            XCTAssertTrue(error?.message?.contains("from book(authorId) to author(id)") ?? false, "\(String(describing: error))")
        }
        try dbQueue.read { db in
            XCTAssertEqual(try migrator.appliedMigrations(db), ["v1", "v2", "v3", "seed", "recreate author"])
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book"), 1)
            XCTAssertEqual(try Int.fetchOne(db, sql: "PRAGMA foreign_keys"), 1, "foreign keys are on again")
        }
    }

    func testImmediateForeignKeyChecksFailTheStatement() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = makeMigrator()
        migrator.registerMigration("orphan", foreignKeyChecks: .immediate) { db in
            try db.execute(sql: "INSERT INTO book (authorId, title) VALUES (42, 'Nobody wrote this')")
        }
        XCTAssertThrowsError(try migrator.migrate(dbQueue)) { error in
            XCTAssertEqual((error as? DatabaseError)?.extendedResultCode, .SQLITE_CONSTRAINT_FOREIGNKEY)
        }
        try dbQueue.read { db in XCTAssertEqual(try migrator.appliedMigrations(db), ["v1", "v2", "v3"]) }
    }

    func testUncheckedDeferredMigrationsLeaveChecksToTheApplication() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = makeMigrator().disablingDeferredForeignKeyChecks()
        migrator.registerMigration("orphan") { db in
            try db.execute(sql: "INSERT INTO book (authorId, title) VALUES (42, 'Nobody wrote this')")
        }
        try migrator.migrate(dbQueue)
        try dbQueue.read { db in
            XCTAssertThrowsError(try db.checkForeignKeys(in: "book")) { error in
                XCTAssertEqual((error as? DatabaseError)?.extendedResultCode, .SQLITE_CONSTRAINT_FOREIGNKEY)
                XCTAssertEqual(
                    (error as? DatabaseError)?.message?.hasPrefix(
                        "FOREIGN KEY constraint violation - from book(authorId) to author(id), in [id:"), true, "\(error)")
            }
            XCTAssertNoThrow(try db.checkForeignKeys(in: "author"))
            let violations = try Array(db.foreignKeyViolations())
            XCTAssertEqual(violations.map(\.originTable), ["book"])
            XCTAssertEqual(violations.first?.destinationTable, "author")
            XCTAssertEqual(violations.first?.description, "FOREIGN KEY constraint violation - from book to author, in rowid 1")
            XCTAssertEqual(try Array(db.foreignKeyViolations(in: "author")).count, 0)
            XCTAssertThrowsError(try db.foreignKeyViolations(in: "missing"))
            XCTAssertEqual(
                assertDatabaseError(.SQLITE_ERROR) { try db.foreignKeyViolations(in: "author", in: "invalid") }?.message,
                "no such schema: invalid")
            XCTAssertEqual(try Array(db.foreignKeyViolations(in: "author", in: "main")).count, 0)
        }
    }

    func testADatabaseMigratedByGRDBGoesOnMigrating() throws {
        // GRDB's layout: the applied identifiers in grdb_migrations.
        let path = try makeTemporaryDatabasePath(self)
        do {
            let dbQueue = try DatabaseQueue(path: path)
            try dbQueue.writeWithoutTransaction { db in
                try db.execute(
                    sql: """
                        CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                        CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT);
                        INSERT INTO grdb_migrations VALUES ('v1');
                        INSERT INTO author VALUES (1, 'Herman');
                        """)
            }
        }
        let dbQueue = try DatabaseQueue(path: path)
        let migrator = makeMigrator()
        try migrator.migrate(dbQueue)
        try dbQueue.read { db in
            XCTAssertEqual(try migrator.appliedMigrations(db), ["v1", "v2", "v3"])
            XCTAssertEqual(try String.fetchOne(db, sql: "SELECT name FROM author"), "Herman")
        }
    }

    func testANewerDatabaseHasBeenSuperseded() throws {
        let dbQueue = try DatabaseQueue()
        var newer = makeMigrator()
        newer.registerMigration("v4") { db in try db.execute(sql: "CREATE TABLE publisher (id INTEGER PRIMARY KEY)") }
        try newer.migrate(dbQueue)
        try dbQueue.read { db in
            XCTAssertTrue(try makeMigrator().hasBeenSuperseded(db))
            XCTAssertTrue(try makeMigrator().hasCompletedMigrations(db))
            XCTAssertFalse(try newer.hasBeenSuperseded(db))
        }
    }

    func testEraseDatabaseOnSchemaChange() throws {
        let dbQueue = try DatabaseQueue()
        var first = DatabaseMigrator()
        first.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)") }
        try first.migrate(dbQueue)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }

        // The same migration, redefined while the schema is designed.
        var second = DatabaseMigrator()
        second.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER)") }
        try dbQueue.read { db in
            XCTAssertTrue(try second.hasSchemaChanges(db))
            XCTAssertFalse(try first.hasSchemaChanges(db))
        }
        try second.migrate(dbQueue)  // without the option: nothing happens
        XCTAssertEqual(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") }, 1)

        second.eraseDatabaseOnSchemaChange = true
        try second.migrate(dbQueue)
        try dbQueue.read { db in
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player"), 0, "erased")
            XCTAssertEqual(try Row.fetchAll(db, sql: "SELECT name FROM pragma_table_info('player')").count, 3)
            XCTAssertFalse(try second.hasSchemaChanges(db))
        }
    }

    func testTheSchemaIsComparedWithADatabaseOfTheSameConfiguration() throws {
        // The reference database runs the migrations with the application's functions.
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            db.add(function: DatabaseFunction("defaultName", argumentCount: 0, pure: true) { _ in "Arthur" })
        }
        let dbQueue = try DatabaseQueue(configuration: configuration)
        var first = DatabaseMigrator()
        first.registerMigration("v1") { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO player (name) VALUES (defaultName())")
        }
        try first.migrate(dbQueue)
        var second = DatabaseMigrator()
        second.eraseDatabaseOnSchemaChange = true
        second.registerMigration("v1") { db in
            try db.execute(
                sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER); INSERT INTO player (name) VALUES (defaultName())")
        }
        XCTAssertTrue(try dbQueue.read(second.hasSchemaChanges))
        try second.migrate(dbQueue)
        XCTAssertFalse(try dbQueue.read(second.hasSchemaChanges))
        XCTAssertEqual(try dbQueue.read { try String.fetchAll($0, sql: "SELECT name FROM player") }, ["Arthur"])
    }

    func testTheReferenceDatabaseIsAFileAsTheApplicationsIs() throws {
        // A `prepareDatabase` that controls the file (GRDB's issue 931) works on it too.
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            var flag: CInt = 0
            let code = withUnsafeMutablePointer(to: &flag) { sqlite3_file_control(db.sqliteConnection, nil, SQLITE_FCNTL_PERSIST_WAL, $0) }
            guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
        }
        let dbQueue = try DatabaseQueue(path: makeTemporaryDatabasePath(self), configuration: configuration)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE t(a)") }
        migrator.eraseDatabaseOnSchemaChange = true
        try migrator.migrate(dbQueue)
        try migrator.migrate(dbQueue)
        XCTAssertFalse(try dbQueue.read(migrator.hasSchemaChanges))
    }

    func testAsyncMigration() async throws {
        let dbQueue = try DatabaseQueue()
        let migrator = makeMigrator()
        try await migrator.migrate(dbQueue)
        let applied = try await dbQueue.read { db in try migrator.appliedMigrations(db) }
        XCTAssertEqual(applied, ["v1", "v2", "v3"])
    }

    func testMigratingBackwardsIsFatal() throws {
        try assertFatalError(
            inScenario: "RippleTests.MigratorFatalErrorScenarios/testMigrateBackwards",
            "already migrated beyond migration \"v1\"")
    }

    func testRegisteringAnIdentifierTwiceIsFatal() throws {
        try assertFatalError(
            inScenario: "RippleTests.MigratorFatalErrorScenarios/testRegisterTwice",
            "registered twice")
    }
}
