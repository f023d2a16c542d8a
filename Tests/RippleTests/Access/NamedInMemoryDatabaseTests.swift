import XCTest

@testable import Ripple

/// `DatabaseQueue(named:)`: shared in-memory databases, by name.
final class NamedInMemoryDatabaseTests: XCTestCase {
    func testQueuesOfTheSameNameShareTheirDatabase() throws {
        let name = UUID().uuidString
        let dbQueue1 = try DatabaseQueue(named: name)
        try dbQueue1.write { db in
            try db.execute(sql: "CREATE TABLE foo(bar TEXT); INSERT INTO foo VALUES ('baz')")
        }
        let dbQueue2 = try DatabaseQueue(named: name)
        XCTAssertEqual(try dbQueue2.read { try String.fetchOne($0, sql: "SELECT bar FROM foo") }, "baz")
        XCTAssertFalse(try DatabaseQueue(named: UUID().uuidString).read { try $0.tableExists("foo") })
        XCTAssertFalse(try DatabaseQueue().read { try $0.tableExists("foo") })
        XCTAssertFalse(try DatabaseQueue(named: nil).read { try $0.tableExists("foo") })
    }

    func testTheDatabaseGoesWithItsLastQueue() throws {
        let name = UUID().uuidString
        do {
            let dbQueue = try DatabaseQueue(named: name)
            try dbQueue.write { try $0.execute(sql: "CREATE TABLE foo(bar TEXT)") }
        }
        XCTAssertFalse(try DatabaseQueue(named: name).read { try $0.tableExists("foo") })
    }

    func testNoFileIsWatchedOrCreated() throws {
        let name = "ripple-named-\(UUID().uuidString)"
        let dbQueue = try DatabaseQueue(named: name)
        XCTAssertNil(dbQueue.externalChangeMonitor)
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE foo(bar TEXT)") }
        let cwd = FileManager.default.currentDirectoryPath
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: cwd).contains { $0.contains(name) })
    }

    func testObservationSeesItsOwnQueuesCommits() throws {
        let dbQueue = try DatabaseQueue(named: UUID().uuidString)
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE foo(bar TEXT)") }
        let counts = LockedState<[Int]>([])
        let delivered = expectation(description: "two values")
        delivered.expectedFulfillmentCount = 2
        let cancellable = ValueObservation.tracking { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM foo")! }
            .start(in: dbQueue, onError: { XCTFail("\($0)") }) { count in
                counts.withLock { $0.append(count) }
                delivered.fulfill()
            }
        try dbQueue.write { try $0.execute(sql: "INSERT INTO foo VALUES ('baz')") }
        withExtendedLifetime(cancellable) {
            wait(for: [delivered], timeout: 10)
            XCTAssertEqual(counts.withLock { $0 }, [0, 1])
        }
    }
}
