// Compiled twice, in Swift 6 (GRDBSpellingSwift6Tests) and Swift 5 (GRDBSpellingSwift5Tests,
// through a link to this file) language modes: code written the way GRDB's documentation
// and test suite write it compiles against Ripple, from nonisolated and main-actor code.
import Dispatch
import Foundation
import Ripple
import XCTest

private struct Player: Codable, FetchableRecord, PersistableRecord, Equatable, Identifiable {
    var id: Int64
    var name: String
}

final class GRDBSpellingTests: XCTestCase {
    private func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.column("id", .integer).primaryKey()
                t.column("name", .text).notNull()
            }
        }
        return dbQueue
    }

    /// `.immediate` from a nonisolated XCTest method, as GRDB's tests do (192 times): the
    /// initial value is delivered during `start`, on the main thread.
    func testImmediateFromNonisolatedCode() throws {
        let dbQueue = try makeQueue()
        let observation = ValueObservation.tracking { db in try Player.fetchAll(db) }
        let received = LockedValues<[Player]>()
        let cancellable = observation.start(in: dbQueue, scheduling: .immediate) { error in
            XCTFail("\(error)")
        } onChange: { players in
            received.append(players)
        }
        XCTAssertEqual(received.values, [[]], "delivered during start")
        withExtendedLifetime(cancellable) {}
    }

    /// Values after the initial one come on the main actor too, for a write made right
    /// after the start, from the same nonisolated method.
    func testImmediateThenWritesFromNonisolatedCode() throws {
        let dbQueue = try makeQueue()
        let received = LockedValues<Int>()
        let expectation = expectation(description: "values")
        expectation.expectedFulfillmentCount = 3
        let cancellable =
            ValueObservation
            .tracking { db in try Player.fetchCount(db) }
            .start(in: dbQueue, scheduling: .immediate) { error in
                XCTFail("\(error)")
            } onChange: { count in
                received.append(count)
                expectation.fulfill()
            }
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (2, 'Barbara')")
        }
        wait(for: [expectation], timeout: 5)
        XCTAssertEqual(received.values, [0, 1, 2])
        withExtendedLifetime(cancellable) {}
    }

    /// On a pool, `.immediate` reads the initial value on a reader, during `start`: a fetch
    /// may write through the pool (on the writer it would be a write inside a write). A
    /// commit between that read and the registration is seen: a second fetch.
    func testImmediateOnAPoolReadsOnAReader() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dbPool = try DatabasePool(path: directory.appendingPathComponent("db.sqlite").path)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY AUTOINCREMENT)") }
        let writes = LockedValues<Int>()
        let observation = ValueObservation.trackingConstantRegion { db -> Int in
            if writes.values.isEmpty {
                writes.append(1)
                try dbPool.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES; DELETE FROM t") }
            }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
        }
        let received = LockedValues<Int>()
        let expectation = expectation(description: "values")
        expectation.expectedFulfillmentCount = 2
        let cancellable = observation.start(in: dbPool, scheduling: .immediate) { error in
            XCTFail("\(error)")
        } onChange: { count in
            received.append(count)
            expectation.fulfill()
        }
        XCTAssertEqual(received.values, [0], "delivered during start")
        wait(for: [expectation], timeout: 5)
        XCTAssertEqual(received.values, [0, 0])
        withExtendedLifetime(cancellable) {}
    }

    /// Off the main actor, `.immediate` does not start the observation: `onError` gets
    /// `SQLITE_MISUSE`, on the main actor.
    func testImmediateOffTheMainActorIsAnError() throws {
        let dbQueue = try makeQueue()
        let failed = expectation(description: "error")
        let started = expectation(description: "started")
        DispatchQueue.global().async {
            let cancellable =
                ValueObservation
                .tracking { db in try Player.fetchAll(db) }
                .start(in: dbQueue, scheduling: .immediate) { error in
                    XCTAssertTrue(Thread.isMainThread)
                    XCTAssertEqual((error as? DatabaseError)?.resultCode, .SQLITE_MISUSE)
                    failed.fulfill()
                } onChange: { _ in
                    XCTFail("no value")
                }
            withExtendedLifetime(cancellable) {}
            started.fulfill()
        }
        wait(for: [started, failed], timeout: 5)
    }

    /// The same with trailing `onChange:` only, and `.async(onQueue:)`.
    func testAsyncSchedulerFromNonisolatedCode() throws {
        let dbQueue = try makeQueue()
        let expectation = expectation(description: "value")
        let cancellable =
            ValueObservation
            .tracking { db in try Player.fetchCount(db) }
            .start(
                in: dbQueue, scheduling: .async(onQueue: .main), onError: { XCTFail("\($0)") },
                onChange: { count in
                    XCTAssertEqual(count, 0)
                    expectation.fulfill()
                })
        wait(for: [expectation], timeout: 5)
        withExtendedLifetime(cancellable) {}
    }

    /// The `.task` schedulers deliver every value, in order, off the calling thread.
    func testTaskSchedulers() throws {
        let dbQueue = try makeQueue()
        for scheduler in [TaskValueObservationScheduler.task, .task(priority: .high)] {
            let received = LockedValues<Int>()
            let expectation = expectation(description: "values")
            expectation.expectedFulfillmentCount = 3
            let cancellable =
                ValueObservation
                .tracking { db in try Player.fetchCount(db) }
                .start(
                    in: dbQueue, scheduling: scheduler, onError: { XCTFail("\($0)") },
                    onChange: { count in
                        received.append(count)
                        expectation.fulfill()
                    })
            for _ in 0..<2 {
                try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('A')") }
            }
            wait(for: [expectation], timeout: 5)
            let start = received.values.first ?? -1
            XCTAssertEqual(received.values, [start, start + 1, start + 2])
            cancellable.cancel()
        }
    }
}

/// Values appended from any thread.
final class LockedValues<Value>: @unchecked Sendable {  // `_values` behind `lock`
    private let lock = NSLock()
    private var _values: [Value] = []
    var values: [Value] { lock.withLock { _values } }
    func append(_ value: Value) { lock.withLock { _values.append(value) } }
}
