import Foundation
import XCTest

@testable import Ripple

/// The end of a transaction visits the application's observers and the region observers
/// the transaction touched, merged in registration order.
final class TransactionEndTests: XCTestCase {
    private final class Silent: TransactionObserver {
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
        func databaseDidChange(with event: DatabaseEvent) {}
        func databaseDidCommit(_ db: Database) {}
        func databaseDidRollback(_ db: Database) {}
    }

    func testEntriesAreMergedInRegistrationOrder() {
        let observer = Silent()
        let entries = (1...6).map { ObserverEntry(id: $0, observer: observer, extent: .databaseLifetime) }
        let merged = DatabaseObservationBroker.merged([entries[0], entries[3], entries[4]], [entries[1], entries[2], entries[5]])
        XCTAssertEqual(merged.map(\.id), [1, 2, 3, 4, 5, 6])
        XCTAssertEqual(DatabaseObservationBroker.merged([], [entries[1]]).map(\.id), [2])
        XCTAssertEqual(DatabaseObservationBroker.merged([entries[0]], []).map(\.id), [1])
        // Entries removed from the registry are left out.
        entries[3].release()
        entries[1].release()
        XCTAssertEqual(
            DatabaseObservationBroker.merged([entries[0], entries[3], entries[4]], [entries[1], entries[2], entries[5]]).map(\.id), [1, 3, 5, 6])
        XCTAssertEqual(DatabaseObservationBroker.merged([], [entries[1]]).map(\.id), [])
    }

    func testOnlyTheTouchedObservationsOfManyAreNotified() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, v)")
            for id in 1...300 { try db.execute(sql: "INSERT INTO t (id, v) VALUES (?, 0)", arguments: [id]) }
        }
        let counts = LockedCounts(300)
        let cancellables = (1...300).map { id in
            DatabaseRegionObservation(tracking: Table("t").filter(key: id))
                .start(in: dbQueue, onError: { XCTFail("\($0)") }, onChange: { _ in counts.increment(id) })
        }
        for id in [7, 7, 250] {
            try dbQueue.write { db in try db.execute(sql: "UPDATE t SET v = v + 1 WHERE id = ?", arguments: [id]) }
        }
        // An observation touched in one transaction is told again in the next one (its
        // impact was reset at the end of the first), and the untouched ones never are.
        XCTAssertEqual(counts.nonZero, [7: 2, 250: 1])
        withExtendedLifetime(cancellables) {}
    }
}

/// Counts per observation, from the writer's queue.
private final class LockedCounts: @unchecked Sendable {  // `counts` is only read and written under `lock`
    private let lock = NSLock()
    private var counts: [Int]
    init(_ count: Int) { counts = Array(repeating: 0, count: count + 1) }
    func increment(_ index: Int) { lock.withLock { counts[index] += 1 } }
    var nonZero: [Int: Int] {
        lock.withLock { Dictionary(uniqueKeysWithValues: counts.enumerated().filter { $0.element > 0 }.map { ($0.offset, $0.element) }) }
    }
}
