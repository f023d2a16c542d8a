import CSQLite
import Foundation
import XCTest

@testable import Ripple

/// vacuum, vacuum(into:), erase.
final class DatabaseMaintenanceTests: XCTestCase {
    private func objectNames(_ db: Database) throws -> [String] {
        // Through the C API: what the file holds, Ripple's own tables included.
        var names: [String] = []
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db.sqliteConnection, "SELECT name FROM sqlite_master ORDER BY name", -1, &statement, nil) == SQLITE_OK else {
            throw DatabaseError(message: "prepare")
        }
        defer { sqlite3_finalize(statement) }
        while sqlite3_step(statement) == SQLITE_ROW { names.append(String(cString: sqlite3_column_text(statement, 0))) }
        return names
    }

    func testEraseEmptiesQueuesAndPools() throws {
        let path = try makeTemporaryDatabasePath(self)
        for writer in [try DatabaseQueue() as any DatabaseWriter, try DatabasePool(path: path)] {
            try writer.write { db in
                try db.execute(
                    sql: """
                        CREATE TABLE t (a); CREATE INDEX t_a ON t(a); CREATE VIEW v AS SELECT * FROM t;
                        CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END;
                        INSERT INTO t VALUES (1); PRAGMA user_version = 7
                        """)
            }
            XCTAssertTrue(try writer.read { try $0.tableExists("t") })
            try writer.erase()
            try writer.read { db in
                XCTAssertEqual(try objectNames(db), [])
                XCTAssertEqual(try Int.fetchOne(db, sql: "PRAGMA user_version"), 0)
                XCTAssertFalse(try db.tableExists("t"), "the schema cache was cleared")
            }
            try writer.write { db in try db.execute(sql: "CREATE TABLE t (b)") }
            XCTAssertEqual(try writer.read { db in try db.columns(in: "t").map(\.name) }, ["b"])
        }
    }

    func testEraseKeepsTheCommitLogOfPreciseMode() throws {
        var configuration = Configuration()
        configuration.logsChangedTables = true
        let dbQueue = try DatabaseQueue(path: try makeTemporaryDatabasePath(self), configuration: configuration)
        XCTAssertTrue(try dbQueue.read { try objectNames($0) }.contains(RippleTables.commitLog))
        try dbQueue.erase()
        XCTAssertEqual(try dbQueue.read { try objectNames($0) }, [RippleTables.commitLog])
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        XCTAssertEqual(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") }, 1)
    }

    func testVacuum() throws {
        let dbQueue = try DatabaseQueue(path: try makeTemporaryDatabasePath(self))
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        try dbQueue.vacuum()
        let copyPath = try makeTemporaryDatabasePath(self, name: "copy.sqlite")
        try dbQueue.vacuum(into: copyPath)
        let copy = try DatabaseQueue(path: copyPath)
        XCTAssertEqual(try copy.read { try Int.fetchOne($0, sql: "SELECT a FROM t") }, 1)
    }
}
