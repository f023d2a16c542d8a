import Foundation
import XCTest

@testable import Ripple

final class DatabaseTests: XCTestCase {
    func testOpeningAFilePathCreatesTheFile() throws {
        let path = try makeTemporaryDatabasePath(self)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        XCTAssertEqual(dbQueue.path, path)
    }

    func testInMemoryDatabase() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)")
        }
        XCTAssertEqual(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT a FROM t") }, 1)
        XCTAssertEqual(dbQueue.path, ":memory:")
    }

    func testReadAccessesReadTheJournalModeAndRefuseToChangeIt() throws {
        // SQLite does not call `PRAGMA journal_mode` read-only; without a value, it only reads.
        let dbPool = try DatabasePool(path: makeTemporaryDatabasePath(self))
        let dbQueue = try DatabaseQueue(path: makeTemporaryDatabasePath(self, name: "queue.sqlite"))
        XCTAssertEqual(try dbPool.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }, "wal")
        XCTAssertEqual(try dbQueue.read { try String.fetchOne($0, sql: "pragma MAIN.journal_mode;") }, "delete")
        try dbQueue.read { db in
            assertDatabaseError(.SQLITE_READONLY) { try db.execute(sql: "PRAGMA journal_mode = wal") }
            assertDatabaseError(.SQLITE_READONLY) { try db.execute(sql: "PRAGMA journal_mode=wal") }
        }
        XCTAssertEqual(try dbQueue.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }, "delete")
    }

    func testReadonlyConnectionRefusesWrites() throws {
        let path = try makeTemporaryDatabasePath(self)
        try DatabaseQueue(path: path).write { try $0.execute(sql: "CREATE TABLE t(a)") }
        var config = Configuration()
        config.readonly = true
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        assertDatabaseError(.SQLITE_READONLY) {
            try dbQueue.writeWithoutTransaction { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
        }
        XCTAssertEqual(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") }, 0)
    }

    func testReadonlyOpeningOfAMissingFileThrows() throws {
        var config = Configuration()
        config.readonly = true
        let path = try makeTemporaryDatabasePath(self)
        assertDatabaseError(.SQLITE_CANTOPEN) { try DatabaseQueue(path: path, configuration: config) }
    }

    func testPathInMissingDirectoryThrows() throws {
        let path = try makeTemporaryDirectory(self).appendingPathComponent("missing/db.sqlite").path
        let error = assertDatabaseError(.SQLITE_CANTOPEN) { try DatabaseQueue(path: path) }
        XCTAssertTrue(error?.message?.contains(path) ?? false, "\(String(describing: error))")
    }

    func testFileThatIsNotADatabaseThrows() throws {
        let path = try makeTemporaryDatabasePath(self)
        try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: path))
        assertDatabaseError(.SQLITE_NOTADB) { try DatabaseQueue(path: path) }
    }

    func testUseAfterCloseThrowsMisuse() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.close()
        let error = assertDatabaseError(.SQLITE_MISUSE) {
            try dbQueue.write { try $0.execute(sql: "CREATE TABLE t(a)") }
        }
        XCTAssertTrue(error?.message?.contains("closed") ?? false)
        assertDatabaseError(.SQLITE_MISUSE) { try dbQueue.read { try Int.fetchOne($0, sql: "SELECT 1") } }
        try dbQueue.close()  // closing twice does nothing
    }

    func testCloseIsDeterministic() throws {
        let path = try makeTemporaryDatabasePath(self)
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE t(a)") }
        try dbQueue.close()
        // The file is free: another connection can take an exclusive lock at once.
        let other = try DatabaseQueue(path: path)
        try other.inTransaction(.exclusive) { db in
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            return .commit
        }
    }

    func testExecuteSeveralStatements() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INT);
                    INSERT INTO player (name, score) VALUES (?, ?);
                    INSERT INTO player (name, score) VALUES (:name, :score); -- a comment
                    """, arguments: ["Arthur", 100] as StatementArguments + ["name": "Barbara", "score": 200])
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id"), ["Arthur", "Barbara"])
        }
    }

    func testDropStatementsDrop() throws {
        // Ripple's authorizer ignores DELETE authorizations (so that the update hook sees
        // every deleted row); a dropped table asks for one too, and must still be dropped.
        let dbQueue = try DatabaseQueue()
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(
                sql: """
                    CREATE TABLE parent (id INTEGER PRIMARY KEY);
                    CREATE TABLE child (parentId REFERENCES parent(id));
                    INSERT INTO parent VALUES (1);
                    CREATE VIEW v AS SELECT * FROM parent;
                    CREATE TEMP TABLE t (a);
                    CREATE TEMP VIEW tv AS SELECT * FROM t;
                    CREATE INDEX i ON child(parentId);
                    """)
            try db.execute(sql: "DROP VIEW v; DROP VIEW tv; DROP INDEX i; DROP TABLE t; DROP TABLE child; DROP TABLE parent")
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master"), 0)
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_temp_master"), 0)
            // A DELETE without WHERE after a drop in the same compilation is still row by row.
            try db.execute(sql: "CREATE TABLE a (x); CREATE TABLE b (y); INSERT INTO b VALUES (1), (2)")
            try db.execute(sql: "DROP TABLE a; DELETE FROM b")
            XCTAssertEqual(db.changesCount, 2)
        }
    }

    func testExecuteWithTooManyArgumentsThrows() throws {
        let dbQueue = try DatabaseQueue()
        let error = assertDatabaseError(.SQLITE_MISUSE) {
            try dbQueue.write { db in
                try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (?)", arguments: [1, 2])
            }
        }
        XCTAssertEqual(error?.message, "wrong number of statement arguments: 2 given, 1 expected")
    }

    func testLastInsertedRowIDAndChangesCounts() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, a)")
            try db.execute(sql: "INSERT INTO t (id, a) VALUES (42, 1)")
            XCTAssertEqual(db.lastInsertedRowID, 42)
            XCTAssertEqual(db.changesCount, 1)
            try db.execute(sql: "INSERT INTO t (a) VALUES (1), (2)")
            XCTAssertEqual(db.changesCount, 2)
            try db.execute(sql: "UPDATE t SET a = 0")
            XCTAssertEqual(db.changesCount, 3)
            XCTAssertEqual(db.totalChangesCount, 6)
        }
    }

    func testTraceReportsStatements() throws {
        let dbQueue = try DatabaseQueue()
        let recorder = SQLRecorder()
        try dbQueue.writeWithoutTransaction { db in
            db.record(into: recorder)
            try db.execute(sql: "CREATE TABLE t(a)")
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [1])
            var expanded: [String] = []
            db.trace { event in
                if case .statement(let statement) = event { expanded.append(statement.expandedSQL) }
            }
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["x"])
            XCTAssertEqual(expanded, ["INSERT INTO t VALUES ('x')"])
            db.trace(nil)
            try db.execute(sql: "DELETE FROM t")
        }
        XCTAssertEqual(recorder.statements, ["CREATE TABLE t(a)", "INSERT INTO t VALUES (?)"])
    }

    func testTraceProfile() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.writeWithoutTransaction { db in
            var durations: [TimeInterval] = []
            db.trace(options: .profile) { event in
                if case .profile(_, let duration) = event { durations.append(duration) }
            }
            try db.execute(sql: "SELECT 1")
            XCTAssertEqual(durations.count, 1)
            XCTAssertGreaterThanOrEqual(durations[0], 0)
        }
    }

    func testForeignKeysAreEnabledByDefault() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            XCTAssertEqual(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys"), true)
            try db.execute(
                sql: """
                    CREATE TABLE team(id INTEGER PRIMARY KEY);
                    CREATE TABLE player(id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id));
                    """)
        }
        assertDatabaseError(.SQLITE_CONSTRAINT_FOREIGNKEY) {
            try dbQueue.write { try $0.execute(sql: "INSERT INTO player (teamId) VALUES (1)") }
        }
        var config = Configuration()
        config.foreignKeysEnabled = false
        let other = try DatabaseQueue(configuration: config)
        XCTAssertEqual(try other.read { try Bool.fetchOne($0, sql: "PRAGMA foreign_keys") }, false)
    }

    func testPrepareDatabaseRunsOnEachConnection() throws {
        var config = Configuration()
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA user_version = 7") }
        let dbQueue = try DatabaseQueue(configuration: config)
        XCTAssertEqual(try dbQueue.read { try Int.fetchOne($0, sql: "PRAGMA user_version") }, 7)
    }

    func testPrepareDatabaseErrorAbortsOpening() throws {
        var config = Configuration()
        config.prepareDatabase { db in try db.execute(sql: "NOT SQL") }
        assertDatabaseError(.SQLITE_ERROR) { try DatabaseQueue(configuration: config) }
    }

    func testBusyModeTimeoutWaitsThenFails() throws {
        let path = try makeTemporaryDatabasePath(self)
        let holder = try DatabaseQueue(path: path)
        try holder.write { try $0.execute(sql: "CREATE TABLE t(a)") }
        var config = Configuration()
        config.busyMode = .timeout(0.2)
        let waiter = try DatabaseQueue(path: path, configuration: config)
        try holder.writeWithoutTransaction { db in
            try db.beginTransaction(.exclusive)
            let start = Date()
            assertDatabaseError(.SQLITE_BUSY) {
                try waiter.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
            }
            XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.15)
            try db.rollback()
        }
    }

    func testBusyModeCallbackIsAskedUntilItGivesUp() throws {
        let path = try makeTemporaryDatabasePath(self)
        let holder = try DatabaseQueue(path: path)
        try holder.write { try $0.execute(sql: "CREATE TABLE t(a)") }
        let tries = SQLRecorder()
        var config = Configuration()
        config.busyMode = .callback { numberOfTries in
            tries.record(String(numberOfTries))
            return numberOfTries < 3
        }
        let waiter = try DatabaseQueue(path: path, configuration: config)
        try holder.writeWithoutTransaction { db in
            try db.beginTransaction(.exclusive)
            assertDatabaseError(.SQLITE_BUSY) {
                try waiter.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
            }
            try db.rollback()
        }
        XCTAssertEqual(tries.statements, ["0", "1", "2", "3"])
    }
}
