import Foundation
import XCTest

@testable import Ripple

/// The type-erased reader and writer, over a queue and a pool.
final class AnyDatabaseWriterTests: XCTestCase {
    private func writers() throws -> [AnyDatabaseWriter] {
        let path = try makeTemporaryDatabasePath(self)
        return [AnyDatabaseWriter(try DatabaseQueue()), AnyDatabaseWriter(try DatabasePool(path: path))]
    }

    func testReadsWritesAndMigrations() throws {
        for writer in try writers() {
            var migrator = DatabaseMigrator()
            migrator.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE t (a)") }
            try migrator.migrate(writer)
            try writer.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
            XCTAssertEqual(try writer.read { db in try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY a") }, [1])
            let reader: any DatabaseReader = AnyDatabaseReader(writer)
            XCTAssertEqual(try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }, 1)
            XCTAssertEqual(reader.path, writer.path)
        }
    }

    func testAsyncAccesses() async throws {
        for writer in try writers() {
            try await writer.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (2)") }
            let reader: any DatabaseReader = AnyDatabaseReader(writer)
            let count = try await reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
            XCTAssertEqual(count, 1)
        }
    }

    /// Observations see every commit made through the erased writer.
    func testValueObservation() throws {
        for writer in try writers() {
            try writer.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
            let values = ValueCollector<Int>()
            let cancellable =
                ValueObservation
                .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! }
                .start(
                    in: writer, scheduling: .async(onQueue: DispatchQueue(label: "test")),
                    onError: { XCTFail("\($0)") }, onChange: { values.append($0) })
            values.wait { $0.last == 0 }
            for _ in 0..<3 { try writer.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") } }
            values.wait { $0.last == 3 }
            cancellable.cancel()
        }
    }
}
