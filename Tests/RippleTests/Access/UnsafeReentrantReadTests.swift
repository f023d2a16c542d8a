import Foundation
import Ripple
import XCTest

/// `unsafeReentrantRead` runs in the access the thread already runs, or reads.
final class UnsafeReentrantReadTests: XCTestCase {
    private func makePool() throws -> (DatabasePool, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-reentrant-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let pool = try DatabasePool(path: directory.appendingPathComponent("db.sqlite").path)
        try pool.write { try $0.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        return (pool, directory)
    }

    func testAQueueReentersItsAccess() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE t (a)") }
        let count = try dbQueue.write { db -> Int? in
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            // In the same transaction: the uncommitted row is seen.
            return try dbQueue.unsafeReentrantRead { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") }
        }
        XCTAssertEqual(count, 1)
        XCTAssertEqual(try dbQueue.unsafeReentrantRead { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") }, 1, "outside of an access, a read")
    }

    func testAPoolReentersItsWriterAndItsReaders() throws {
        let (pool, directory) = try makePool()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fromWriter = try pool.write { db -> Int? in
            try db.execute(sql: "INSERT INTO t VALUES (2)")
            return try pool.unsafeReentrantRead { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") }
        }
        XCTAssertEqual(fromWriter, 2, "the writer's own transaction")
        let fromReader = try pool.read { db -> Bool in
            try pool.unsafeReentrantRead { inner in inner === db }
        }
        XCTAssertTrue(fromReader, "the reader the thread runs")
        let generic: any DatabaseReader = AnyDatabaseReader(pool)
        XCTAssertEqual(try generic.unsafeReentrantRead { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") }, 2)
    }
}
