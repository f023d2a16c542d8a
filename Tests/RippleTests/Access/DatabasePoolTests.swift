import Dispatch
import Foundation
import XCTest

@testable import Ripple

final class DatabasePoolTests: XCTestCase {
    private func makePool(_ configuration: Configuration = Configuration()) throws -> DatabasePool {
        let dbPool = try DatabasePool(path: makeTemporaryDatabasePath(self), configuration: configuration)
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE t(a INT)")
        }
        return dbPool
    }

    private func count(_ reader: some DatabaseReader) throws -> Int {
        try reader.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t")! }
    }

    func testPoolIsInWALMode() throws {
        let dbPool = try makePool()
        XCTAssertEqual(try dbPool.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }, "wal")
    }

    func testInMemoryPoolIsRefused() {
        assertDatabaseError(.SQLITE_MISUSE) { try DatabasePool(path: ":memory:") }
    }

    func testReadersNeverSeeUncommittedWrites() throws {
        let dbPool = try makePool()
        try dbPool.writeWithoutTransaction { db in
            try db.beginTransaction()
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            XCTAssertEqual(try self.count(dbPool), 0)  // a read from inside a write is allowed
            try db.commit()
        }
        XCTAssertEqual(try count(dbPool), 1)
    }

    func testReadKeepsItsSnapshot() throws {
        let dbPool = try makePool()
        let readStarted = DispatchSemaphore(value: 0)
        let writeDone = DispatchSemaphore(value: 0)
        let counts = SQLRecorder()
        let reader = Thread {
            try! dbPool.read { db in
                counts.record(String(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!))
                readStarted.signal()
                writeDone.wait()
                counts.record(String(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!))
            }
            counts.record("done")
        }
        reader.start()
        readStarted.wait()
        try dbPool.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }  // not blocked by the read
        writeDone.signal()
        while !counts.statements.contains("done") { usleep(1000) }
        XCTAssertEqual(counts.statements, ["0", "0", "done"])
        XCTAssertEqual(try count(dbPool), 1)
    }

    func testReadsRunInParallelWithEachOtherAndWithAWrite() throws {
        let dbPool = try makePool()
        // Three accesses that each wait for the two others to have started: they can only
        // all finish if they run at the same time.
        let group = DispatchGroup()
        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let finished = SQLRecorder()
        for index in 0..<2 {
            DispatchQueue.global().async(group: group) {
                try! dbPool.read { _ in
                    started.signal()
                    proceed.wait()
                }
                finished.record("read \(index)")
            }
        }
        DispatchQueue.global().async(group: group) {
            try! dbPool.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                started.signal()
                proceed.wait()
            }
            finished.record("write")
        }
        for _ in 0..<3 { XCTAssertEqual(started.wait(timeout: .now() + 5), .success) }
        for _ in 0..<3 { proceed.signal() }
        XCTAssertEqual(group.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(Set(finished.statements), ["read 0", "read 1", "write"])
    }

    func testMaximumReaderCount() throws {
        var config = Configuration()
        config.maximumReaderCount = 2
        let dbPool = try makePool(config)
        let active = ManagedCounter()
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            try! dbPool.read { _ in
                active.enter()
                usleep(20_000)
                active.leave()
            }
        }
        XCTAssertEqual(active.maximum, 2)
    }

    func testWriteInsideReadFails() throws {
        let dbPool = try makePool()
        assertDatabaseError(.SQLITE_READONLY) {
            try dbPool.read { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
        }
    }

    func testAsyncConcurrentReadSeesTheStateJustWritten() throws {
        let dbPool = try makePool()
        let values = SQLRecorder()
        let done = expectation(description: "concurrent read")
        try dbPool.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            dbPool.asyncConcurrentRead { result in
                // Runs while the writer deletes: the snapshot is the state after the insert.
                usleep(50_000)
                let db = try! result.get()
                values.record(String(try! Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!))
                XCTAssertTrue(db.isInsideTransaction)
                done.fulfill()
            }
            // The writer is released as soon as the snapshot exists, before the read ends.
            values.record("writer released")
            try db.execute(sql: "DELETE FROM t")
        }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(values.statements, ["writer released", "1"])
        XCTAssertEqual(try count(dbPool), 0)
    }

    func testAsyncRead() async throws {
        let dbPool = try makePool()
        try await dbPool.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
        let count = try await dbPool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") }
        XCTAssertEqual(count, 1)
    }

    func testBarrierWriteWaitsForReads() throws {
        let dbPool = try makePool()
        let events = SQLRecorder()
        let readStarted = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            try! dbPool.read { _ in
                readStarted.signal()
                usleep(100_000)
                events.record("read end")
            }
        }
        readStarted.wait()
        try dbPool.barrierWriteWithoutTransaction { db in
            events.record("barrier")
            try db.execute(sql: "INSERT INTO t VALUES (1)")
        }
        group.wait()
        XCTAssertEqual(events.statements, ["read end", "barrier"])
    }

    func testUnsafeReadHasNoTransaction() throws {
        let dbPool = try makePool()
        try dbPool.unsafeRead { db in XCTAssertFalse(db.isInsideTransaction) }
    }

    func testCloseThenUseThrows() throws {
        let dbPool = try makePool()
        try dbPool.close()
        assertDatabaseError(.SQLITE_MISUSE) { try dbPool.read { _ in } }
        assertDatabaseError(.SQLITE_MISUSE) { try dbPool.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") } }
    }

    func testPoolAndQueueSeeEachOther() throws {
        let path = try makeTemporaryDatabasePath(self)
        let dbPool = try DatabasePool(path: path)
        try dbPool.write { try $0.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)") }
        let dbQueue = try DatabaseQueue(path: path)
        XCTAssertEqual(try count(dbQueue), 1)
    }
}

/// Counts concurrent entries, and remembers the maximum.
final class ManagedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0
    private(set) var maximum = 0
    func enter() {
        lock.withLock {
            current += 1
            maximum = max(maximum, current)
        }
    }
    func leave() { lock.withLock { current -= 1 } }
}
