import Foundation
import XCTest
@testable import Ripple

/// Changes committed by other connections and processes (another connection to the same
/// file stands for another process: SQLite tells them apart no better).
final class ExternalChangeMonitorTests: XCTestCase {
    private func configuration(interval: TimeInterval?) -> Configuration {
        var config = Configuration()
        config.externalChangeCheckInterval = interval
        config.busyMode = .timeout(5)
        return config
    }

    /// Waits until `writer` has run `count` more external change checks.
    private func waitForChecks(_ writer: some DatabaseWriter, count: Int) throws {
        let start = writer.unsafeReentrantWrite { $0.observation.externalChangeChecks }
        let deadline = Date().addingTimeInterval(10)
        while writer.unsafeReentrantWrite({ $0.observation.externalChangeChecks }) < start + count {
            XCTAssertLessThan(Date(), deadline, "external change checks do not run")
            if Date() > deadline { return }
            usleep(5_000)
        }
    }

    func testChangesOfAnotherConnectionReachObservations() throws {
        let path = try makeTemporaryDatabasePath(self)
        let observed = try DatabaseQueue(path: path, configuration: configuration(interval: 0.01))
        let other = try DatabaseQueue(path: path, configuration: configuration(interval: nil))
        try observed.write { try $0.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)") }

        let regionChanges = ChangeCounter()
        let regionCancellable = DatabaseRegionObservation(tracking: Table("player"))
            .start(in: observed, onError: { XCTFail("\($0)") }, onChange: { _ in regionChanges.increment() })
        let values = expectation(description: "values")
        values.expectedFulfillmentCount = 2
        let counts = LockedBox<[Int]>([])
        let valueCancellable = ValueObservation
            .tracking { try Table("player").fetchCount($0) }
            .start(in: observed, scheduling: .async(onQueue: .main), onError: { XCTFail("\($0)") }) { count in
                counts.update { $0.append(count) }
                values.fulfill()
            }
        try waitForChecks(observed, count: 2)

        try other.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
        wait(for: [values], timeout: 10)
        XCTAssertEqual(counts.value, [0, 1])
        XCTAssertEqual(regionChanges.count, 1)

        // Ripple's own writes are seen once, by the hooks, not again by the checks.
        try observed.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')") }
        try waitForChecks(observed, count: 3)
        XCTAssertEqual(regionChanges.count, 2)
        withExtendedLifetime((regionCancellable, valueCancellable)) {}
    }

    func testPoolWriterChecksToo() throws {
        let path = try makeTemporaryDatabasePath(self)
        let observed = try DatabasePool(path: path, configuration: configuration(interval: 0.01))
        let other = try DatabasePool(path: path, configuration: configuration(interval: nil))
        try observed.write { try $0.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY)") }
        let changes = ChangeCounter()
        let cancellable = DatabaseRegionObservation(tracking: Table("item"))
            .start(in: observed, onError: { XCTFail("\($0)") }, onChange: { _ in changes.increment() })
        try waitForChecks(observed, count: 2)
        try other.write { try $0.execute(sql: "INSERT INTO item DEFAULT VALUES") }
        try waitForChecks(observed, count: 2)
        XCTAssertEqual(changes.count, 1)
        withExtendedLifetime(cancellable) {}
    }

    func testNoChecksUnlessConfiguredOrInMemory() throws {
        let path = try makeTemporaryDatabasePath(self)
        let unconfigured = try DatabaseQueue(path: path)
        let inMemory = try DatabaseQueue(configuration: configuration(interval: 0.01))
        usleep(50_000)
        XCTAssertEqual(try unconfigured.read { $0.observation.externalChangeChecks }, 0)
        XCTAssertEqual(try inMemory.read { $0.observation.externalChangeChecks }, 0)
    }
}

/// A value shared between threads.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var _value: Value
    init(_ value: Value) { _value = value }
    var value: Value { lock.withLock { _value } }
    func update(_ body: (inout Value) -> Void) { lock.withLock { body(&_value) } }
}
