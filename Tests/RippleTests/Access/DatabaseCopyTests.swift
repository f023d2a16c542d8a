import Foundation
import Ripple
import XCTest

/// Backups, and the in-memory and temporary copies of a database file.
final class DatabaseCopyTests: XCTestCase {
    private func makeSource() throws -> (DatabaseQueue, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let dbQueue = try DatabaseQueue(path: directory.appendingPathComponent("db.sqlite").path)
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO player (name) VALUES ('Arthur'), ('Barbara')")
        }
        return (dbQueue, directory)
    }

    func testBackupCopiesTheContentAndReportsProgress() throws {
        let (source, directory) = try makeSource()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = try DatabaseQueue()
        try destination.write { try $0.execute(sql: "CREATE TABLE other (a)") }
        var steps: [DatabaseBackupProgress] = []
        try source.backup(to: destination, pagesPerStep: 1) { steps.append($0) }
        XCTAssertEqual(try destination.read { try String.fetchAll($0, sql: "SELECT name FROM player ORDER BY id") }, ["Arthur", "Barbara"])
        XCTAssertFalse(try destination.read { try $0.tableExists("other") }, "the destination's content is replaced")
        XCTAssertEqual(steps.last?.isCompleted, true)
        XCTAssertEqual(steps.last?.remainingPageCount, 0)
        XCTAssertGreaterThan(steps.count, 1, "one page per step")
    }

    func testAnInMemoryCopyLeavesTheFileAsItIs() throws {
        let (source, directory) = try makeSource()
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = try DatabaseQueue.inMemoryCopy(fromPath: source.path)
        try copy.write { try $0.execute(sql: "DELETE FROM player") }
        XCTAssertEqual(try copy.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") }, 0)
        XCTAssertEqual(try source.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") }, 2)
    }

    func testAReadOnlyTemporaryCopyRefusesWrites() throws {
        let (source, directory) = try makeSource()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = Configuration()
        configuration.readonly = true
        let copy = try DatabaseQueue.temporaryCopy(fromPath: source.path, configuration: configuration)
        XCTAssertEqual(try copy.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") }, 2)
        XCTAssertThrowsError(try copy.write { try $0.execute(sql: "DROP TABLE player") }) { error in
            XCTAssertEqual((error as? DatabaseError)?.message, "attempt to write a readonly database")
        }
    }
}
