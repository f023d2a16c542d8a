import Dispatch
import Foundation
import Ripple
import XCTest

final class ConnectionQueueConfigurationTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory(self)
    }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func testJournalModeOfDatabaseQueue() throws {
        let plain = try DatabaseQueue(path: path("plain.sqlite"))
        XCTAssertEqual(try plain.writeWithoutTransaction { try String.fetchOne($0, sql: "PRAGMA journal_mode") }, "delete")
        var config = Configuration()
        config.journalMode = .wal
        let wal = try DatabaseQueue(path: path("wal.sqlite"), configuration: config)
        XCTAssertEqual(try wal.writeWithoutTransaction { try String.fetchOne($0, sql: "PRAGMA journal_mode") }, "wal")
        XCTAssertThrowsError(try DatabaseQueue(configuration: config))
    }

    func testTargetQueues() throws {
        let target = DispatchQueue(label: "target")
        let writeTarget = DispatchQueue(label: "writeTarget")
        var config = Configuration()
        config.targetQueue = target
        config.writeTargetQueue = writeTarget
        let dbQueue = try DatabaseQueue(path: path("queue.sqlite"), configuration: config)
        try dbQueue.write { _ in dispatchPrecondition(condition: .onQueue(writeTarget)) }
        let dbPool = try DatabasePool(path: path("pool.sqlite"), configuration: config)
        try dbPool.write { _ in dispatchPrecondition(condition: .onQueue(writeTarget)) }
        try dbPool.read { _ in dispatchPrecondition(condition: .onQueue(target)) }
        config.readonly = true
        let readonly = try DatabaseQueue(path: path("queue.sqlite"), configuration: config)
        try readonly.read { _ in dispatchPrecondition(condition: .onQueue(target)) }
    }

    func testReleaseMemoryKeepsConnectionsUsable() throws {
        let dbPool = try DatabasePool(path: path("memory.sqlite"))
        try dbPool.write { try $0.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)") }
        _ = try dbPool.read { try Int.fetchOne($0, sql: "SELECT a FROM t") }
        dbPool.releaseMemory()
        XCTAssertEqual(try dbPool.read { try Int.fetchOne($0, sql: "SELECT a FROM t") }, 1)
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE t(a)") }
        dbQueue.releaseMemory()
        XCTAssertEqual(try dbQueue.read { db in try db.columns(in: "t").map(\.name) }, ["a"])
    }
}
