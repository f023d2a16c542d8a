import Dispatch
import Foundation
import XCTest

@testable import Ripple

/// Work that may wait for the end of the access under way (the external change checks):
/// the state machine, and the writer of a queue and a pool that runs it.
final class AccessOccupancyTests: XCTestCase {
    func testWorkWaitsForTheEndOfAnAccessInFlightOnly() {
        var state = AccessOccupancyState<Int>()
        // Nothing in flight: the caller runs the work itself.
        XCTAssertFalse(state.keepForEndOfAccess(1))
        XCTAssertEqual(state.waitingCount, 0)
        state.accessWillStart()
        state.accessWillStart()
        XCTAssertTrue(state.keepForEndOfAccess(2))
        XCTAssertTrue(state.keepForEndOfAccess(3))
        // The first access to end runs all of it, in order, and only once.
        XCTAssertEqual(state.accessDidEnd(), [2, 3])
        XCTAssertEqual(state.accessesInFlight, 1)
        XCTAssertEqual(state.accessDidEnd(), [])
        XCTAssertEqual(state.accessesInFlight, 0)
        XCTAssertFalse(state.keepForEndOfAccess(4))
    }

    /// Records where work ran, across threads.
    private final class Trace: @unchecked Sendable {  // `items` behind `lock`
        private let lock = NSLock()
        private var _items: [String] = []
        func append(_ item: String) { lock.withLock { _items.append(item) } }
        var items: [String] { lock.withLock { _items } }
    }

    private func assertWorkRunsAtTheEndOfTheAccessUnderWay(_ writer: some DatabaseWriter, serialized: SerializedDatabase) throws {
        let trace = Trace()
        let accessStarted = DispatchSemaphore(value: 0)
        let mayEnd = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            writer.writeWithoutTransaction { _ in
                trace.append("access \(ObjectIdentifier(Thread.current))")
                accessStarted.signal()
                mayEnd.wait()
            }
            done.signal()
        }
        accessStarted.wait()
        serialized.runAtEndOfAccess { db, _ in
            // Inside an access: the connection may be used.
            XCTAssertEqual(try? Int.fetchOne(db, sql: "SELECT 1"), 1)
            trace.append("work \(ObjectIdentifier(Thread.current))")
        }
        // An access queued after the work was asked for runs after it.
        let queued = DispatchSemaphore(value: 0)
        writer.asyncWriteWithoutTransaction { _ in
            trace.append("next")
            queued.signal()
        }
        XCTAssertEqual(trace.items.count, 1, "the work waits for the access under way")
        mayEnd.signal()
        done.wait()
        queued.wait()
        let items = trace.items
        guard items.count == 3 else { return XCTFail("unexpected trace \(items)") }
        XCTAssertEqual(items[1], "work " + items[0].dropFirst("access ".count), "on the thread of the access, right after it")
        XCTAssertEqual(items.last, "next")

        // Nothing in flight (a sync access ended after the others): the work runs in an
        // access of its own.
        writer.writeWithoutTransaction { _ in }
        XCTAssertEqual(serialized.accessesInFlight, 0)
        XCTAssertFalse(serialized.keepForEndOfAccess { _ in XCTFail("kept with no access in flight") })
        let ran = DispatchSemaphore(value: 0)
        serialized.runAtEndOfAccess { db, _ in
            XCTAssertEqual(try? Int.fetchOne(db, sql: "SELECT 2"), 2)
            ran.signal()
        }
        XCTAssertEqual(ran.wait(timeout: .now() + 20), .success)
    }

    func testWorkRunsAtTheEndOfTheAccessUnderWayOnAQueue() throws {
        let dbQueue = try DatabaseQueue(path: makeTemporaryDatabasePath(self))
        try assertWorkRunsAtTheEndOfTheAccessUnderWay(dbQueue, serialized: dbQueue.writer)
    }

    func testWorkRunsAtTheEndOfTheAccessUnderWayOnAPool() throws {
        let dbPool = try DatabasePool(path: makeTemporaryDatabasePath(self))
        try assertWorkRunsAtTheEndOfTheAccessUnderWay(dbPool, serialized: dbPool.writer)
    }

    func testOnlyWritersThatWatchOtherProcessesCountTheirAccesses() throws {
        XCTAssertNil(try DatabaseQueue().writer.accessesInFlight, "in memory: nothing to watch")
        var config = Configuration()
        config.observesExternalChanges = false
        XCTAssertNil(try DatabaseQueue(path: makeTemporaryDatabasePath(self), configuration: config).writer.accessesInFlight)
        XCTAssertEqual(try DatabaseQueue(path: makeTemporaryDatabasePath(self)).writer.accessesInFlight, 0)
        XCTAssertEqual(try DatabasePool(path: makeTemporaryDatabasePath(self)).writer.accessesInFlight, 0)
    }

    func testWorkRunsAfterAnAccessThatThrew() throws {
        let dbQueue = try DatabaseQueue(path: makeTemporaryDatabasePath(self))
        let ran = Trace()
        XCTAssertThrowsError(
            try dbQueue.write { db in
                dbQueue.writer.runAtEndOfAccess { _, _ in ran.append("work") }
                try db.execute(sql: "SELECT * FROM missing")
            })
        XCTAssertEqual(ran.items, ["work"])
    }
}
