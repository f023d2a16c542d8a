import XCTest

@testable import Ripple

/// `registerMigration(_:merging:)`: a migration that replaces older ones.
final class MergedMigrationTests: XCTestCase {
    /// The migrator of the previous version: v1, v2, v3, v4.
    private func oldMigrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for n in 1...4 {
            migrator.registerMigration("v\(n)") { db in try db.execute(sql: "CREATE TABLE t\(n)(a)") }
        }
        return migrator
    }

    /// The migrator of the new version: v1, then v4 merging v2 and v3 (named like the last
    /// one it merges when `name` is "v4"), then v5. Records what each run of the merged
    /// migration was told.
    private func newMigrator(mergedName: String, merging: Set<String>, told: LockedState<[Set<String>]>) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE t1(a)") }
        migrator.registerMigration(mergedName, merging: merging) { db, appliedIDs in
            told.withLock { $0.append(appliedIDs) }
            for n in 2...4 where !appliedIDs.contains("v\(n)") {
                try db.execute(sql: "CREATE TABLE t\(n)(a)")
            }
        }
        migrator.registerMigration("v5") { db in try db.execute(sql: "CREATE TABLE t5(a)") }
        return migrator
    }

    private func appliedIdentifiers(_ dbQueue: DatabaseQueue) throws -> [String] {
        try dbQueue.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier") }
    }

    private func tables(_ dbQueue: DatabaseQueue) throws -> [String] {
        try dbQueue.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE name LIKE 't%' ORDER BY name") }
    }

    func testMergedMigrationNamedLikeTheLast() throws {
        // From each state the old migrator could leave: nothing, up to v1, v2, v3, v4.
        for oldTarget in [nil, "v1", "v2", "v3", "v4"] {
            let dbQueue = try DatabaseQueue()
            if let oldTarget { try oldMigrator().migrate(dbQueue, upTo: oldTarget) }
            let told = LockedState<[Set<String>]>([])
            let migrator = newMigrator(mergedName: "v4", merging: ["v2", "v3"], told: told)
            try migrator.migrate(dbQueue)
            XCTAssertEqual(try tables(dbQueue), ["t1", "t2", "t3", "t4", "t5"], "from \(oldTarget ?? "empty")")
            XCTAssertEqual(try appliedIdentifiers(dbQueue), ["v1", "v4", "v5"], "from \(oldTarget ?? "empty")")
            let expected: [Set<String>]
            switch oldTarget {
            case nil, "v1": expected = [[]]
            case "v2": expected = [["v2"]]
            case "v3": expected = [["v2", "v3"]]
            default: expected = []  // v4 was applied: it does not run again
            }
            XCTAssertEqual(told.withLock { $0 }, expected, "from \(oldTarget ?? "empty")")
            XCTAssertTrue(try dbQueue.read(migrator.hasCompletedMigrations))
            XCTAssertFalse(try dbQueue.read(migrator.hasBeenSuperseded))
        }
    }

    func testMergedMigrationWithANewName() throws {
        for oldTarget in ["v2", "v4"] {
            let dbQueue = try DatabaseQueue()
            try oldMigrator().migrate(dbQueue, upTo: oldTarget)
            let told = LockedState<[Set<String>]>([])
            // A merged migration that names itself among those it merges: it is left out.
            let migrator = newMigrator(mergedName: "v4-new", merging: ["v2", "v3", "v4", "v4-new"], told: told)
            try migrator.migrate(dbQueue)
            XCTAssertEqual(try tables(dbQueue), ["t1", "t2", "t3", "t4", "t5"])
            XCTAssertEqual(try appliedIdentifiers(dbQueue), ["v1", "v4-new", "v5"])
            XCTAssertEqual(told.withLock { $0 }, oldTarget == "v2" ? [["v2"]] : [["v2", "v3", "v4"]])
        }
    }

    func testAFailedMergedMigrationForgetsNothing() throws {
        let dbQueue = try DatabaseQueue()
        try oldMigrator().migrate(dbQueue, upTo: "v2")
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE t1(a)") }
        migrator.registerMigration("v4", merging: ["v2", "v3"]) { db, _ in
            try db.execute(sql: "CREATE TABLE t3(a)")
            throw DatabaseError(message: "failure")
        }
        XCTAssertThrowsError(try migrator.migrate(dbQueue))
        XCTAssertEqual(try appliedIdentifiers(dbQueue), ["v1", "v2"])
        XCTAssertEqual(try tables(dbQueue), ["t1", "t2"])
    }
}
