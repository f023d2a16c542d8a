import Dispatch
import Foundation
import XCTest

@testable import Ripple

/// `handleEvents(...)`, `print(_:to:)` and `requiresWriteAccess`, as in GRDB 7.
final class ValueObservationEventsTests: XCTestCase {
    private let queue = DispatchQueue(label: "ValueObservationEventsTests")

    /// Records event names, in order.
    final class EventLog: TextOutputStream, @unchecked Sendable {  // every access goes through `lock`
        private let lock = NSLock()
        private var _lines: [String] = []
        var lines: [String] { lock.withLock { _lines } }
        func append(_ line: String) { lock.withLock { _lines.append(line) } }
        private var _writes: [String] = []
        /// Each `write` call, as given.
        var writes: [String] { lock.withLock { _writes } }
        func write(_ string: String) {
            lock.withLock { _writes.append(string) }
            for line in string.split(separator: "\n") { append(String(line)) }
        }
        func wait(until predicate: ([String]) -> Bool) -> [String] {
            let deadline = Date().addingTimeInterval(5)
            while !predicate(lines) && Date() < deadline { usleep(1000) }
            return lines
        }
    }

    private func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)") }
        return dbQueue
    }

    func testHandleEventsTellsTheLifeOfAnObservation() throws {
        try assertLifeOfAnObservation(in: makeQueue())
    }

    /// A pool's commits take another path (one lock for the handlers and the next fetch).
    func testHandleEventsTellsTheLifeOfAnObservationOnAPool() throws {
        let dbPool = try DatabasePool(path: makeTemporaryDatabasePath(self))
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)") }
        try assertLifeOfAnObservation(in: dbPool)
    }

    /// A pool's observation whose first fetch fails ends with the error: it tracks no
    /// region, and is not registered on the writer (GRDB's `ValueObservationPrintTests`).
    func testAFailedFirstFetchOnAPoolTracksNothing() throws {
        struct TestError: Error {}
        let dbPool = try DatabasePool(path: makeTemporaryDatabasePath(self))
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)") }
        func assertFailure(scheduling scheduler: some ValueObservationScheduler) throws {
            let log = EventLog()
            let observation =
                ValueObservation
                .trackingConstantRegion { _ -> Int in throw TestError() }
                .print(to: log)
            let failed = expectation(description: "failure")
            let cancellable = MainActor.assumeIsolated {
                observation.start(in: dbPool, scheduling: scheduler, onError: { _ in failed.fulfill() }, onChange: { _ in })
            }
            wait(for: [failed], timeout: 5)
            // The writer's queue has run whatever the start scheduled on it.
            try dbPool.write { db in try db.execute(sql: "INSERT INTO player DEFAULT VALUES") }
            queue.sync {}
            XCTAssertEqual(log.lines, ["start", "fetch", "failure: TestError()"])
            cancellable.cancel()
        }
        try assertFailure(scheduling: .immediate)
        try assertFailure(scheduling: .async(onQueue: queue))
    }

    private func assertLifeOfAnObservation(in dbQueue: some DatabaseWriter) throws {
        let log = EventLog()
        let observation =
            ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
            .handleEvents(
                willStart: { log.append("willStart") },
                willFetch: { log.append("willFetch") },
                willTrackRegion: { log.append("willTrackRegion \($0.isModified(byChangeOf: "player", kind: .insert))") },
                databaseDidChange: { log.append("databaseDidChange") },
                didReceiveValue: { log.append("didReceiveValue \($0)") },
                didFail: { log.append("didFail \($0)") },
                didCancel: { log.append("didCancel") })
        let cancellable = observation.start(
            in: dbQueue, scheduling: .async(onQueue: queue), onError: { _ in }, onChange: { log.append("onChange \($0)") })
        _ = log.wait { $0.contains("onChange 0") }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('a')") }
        _ = log.wait { $0.contains("onChange 1") }
        cancellable.cancel()
        let lines = log.lines
        // On a pool, the first fetch runs on a reader, and its region reaches the writer
        // after the value may have been told.
        let start = ["willStart", "willFetch", "willTrackRegion true", "didReceiveValue 0", "onChange 0"]
        if dbQueue is DatabasePool {
            XCTAssertEqual(Array(lines.prefix(2)), Array(start.prefix(2)))
            XCTAssertEqual(Set(lines.prefix(5)), Set(start))
        } else {
            XCTAssertEqual(Array(lines.prefix(5)), start)
        }
        XCTAssertEqual(
            Array(lines.dropFirst(5)),
            [
                "databaseDidChange", "willFetch", "didReceiveValue 1", "onChange 1",
                "didCancel",
            ])
    }

    func testHandleEventsTellsFailures() throws {
        let dbQueue = try makeQueue()
        let log = EventLog()
        let observation =
            ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM nothing")! }
            .handleEvents(didFail: { _ in log.append("didFail") })
        let cancellable = observation.start(
            in: dbQueue, scheduling: .async(onQueue: queue), onError: { _ in log.append("onError") }, onChange: { _ in })
        XCTAssertEqual(log.wait { $0.count == 2 }, ["didFail", "onError"])
        withExtendedLifetime(cancellable) {}
    }

    func testPrintWritesEachEventWithItsPrefix() throws {
        let dbQueue = try makeQueue()
        let log = EventLog()
        let observation =
            ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
            .print("players", to: log)
        let cancellable = observation.start(in: dbQueue, scheduling: .async(onQueue: queue), onError: { _ in }, onChange: { _ in })
        _ = log.wait { $0.contains("players: value: 0") }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('a')") }
        _ = log.wait { $0.contains("players: value: 1") }
        cancellable.cancel()
        let lines = log.lines
        XCTAssertEqual(lines.first, "players: start")
        XCTAssertEqual(lines.filter { $0 == "players: fetch" }.count, 2)
        XCTAssertTrue(lines.contains { $0.hasPrefix("players: tracked region: ") }, "\(lines)")
        XCTAssertTrue(lines.contains("players: database did change"), "\(lines)")
        XCTAssertEqual(lines.last, "players: cancel")
        // As GRDB: one write a message, without a line feed.
        XCTAssertEqual(log.writes, lines)
    }

    func testRequiresWriteAccessLetsTheFetchWriteOnAPool() throws {
        let dbPool = try DatabasePool(path: makeTemporaryDatabasePath(self))
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT); CREATE TABLE fetchLog (n INTEGER)")
        }
        @Sendable func fetch(_ db: Database) throws -> Int {
            // A fetch that writes (outside of the observed region).
            try db.execute(sql: "INSERT INTO fetchLog VALUES (1)")
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
        }
        // Without write access, the fetch runs on a reader, read-only: it fails.
        let failing = ValueCollector<Int>()
        let failingCancellable = ValueObservation.tracking(region: Table<Row>("player"), fetch: fetch)
            .start(in: dbPool, scheduling: .async(onQueue: queue), onError: { failing.append(error: $0) }, onChange: { failing.append($0) })
        let deadline = Date().addingTimeInterval(5)
        while failing.errors.isEmpty && Date() < deadline { usleep(1000) }
        XCTAssertFalse(failing.errors.isEmpty)
        withExtendedLifetime(failingCancellable) {}

        var observation = ValueObservation.tracking(region: Table<Row>("player"), fetch: fetch)
        observation.requiresWriteAccess = true
        let collector = ValueCollector<Int>()
        let cancellable = observation.start(
            in: dbPool, scheduling: .async(onQueue: queue), onError: { collector.append(error: $0) }, onChange: { collector.append($0) })
        collector.wait(until: { $0 == [0] })
        try dbPool.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('a')") }
        collector.wait(until: { $0 == [0, 1] })
        XCTAssertTrue(collector.errors.isEmpty, "\(collector.errors)")
        XCTAssertEqual(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM fetchLog") }, 2)
        withExtendedLifetime(cancellable) {}
    }
}
