import Foundation
import XCTest

@testable import Ripple

/// The registry of a connection's observers, without a database: who is registered, in
/// which order, and what the region index holds after additions and removals.
final class ObserverRegistryTests: XCTestCase {
    final class Observer: TransactionObserver {
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) {}
        func databaseDidCommit(_ db: Database) {}
        func databaseDidRollback(_ db: Database) {}
    }

    func regionObserver(table: String, rowID: Int64) -> ClosureRegionObserver {
        ClosureRegionObserver(region: DatabaseRegion(table: table, rowIDs: [rowID]), onChange: { _ in })
    }

    func testRegionObserversAreRemovedFromTheIndexAndTheOthersStay() {
        var registry = ObserverRegistry()
        let observers = (1...5).map { regionObserver(table: "player", rowID: $0) }
        for observer in observers { registry.add(observer, extent: .databaseLifetime) }
        XCTAssertEqual(registry.regionIndex.tables["player"]?.idsByRowID.count, 5)

        let removed = registry.remove(observers[2])
        XCTAssertTrue(removed?.regionObserver === observers[2])
        XCTAssertNil(registry.regionIndex.tables["player"]?.idsByRowID[3], "its rowid left the index")
        XCTAssertEqual(registry.regionIndex.tables["player"]?.idsByRowID.count, 4)
        XCTAssertEqual(
            registry.entries.compactMap(\.regionObserver).map(ObjectIdentifier.init),
            [0, 1, 3, 4].map { ObjectIdentifier(observers[$0]) }, "the others, in registration order")
        XCTAssertNil(registry.entry(of: observers[2]))
        XCTAssertNotNil(registry.entry(of: observers[3]))
        XCTAssertNil(registry.remove(observers[2]), "removed once")

        for index in [0, 1, 3, 4] { _ = registry.remove(observers[index]) }
        XCTAssertTrue(registry.isEmpty)
        XCTAssertTrue(registry.regionIndex.isEmpty)
    }

    /// A registry of an application observer with `firstExtent`, a region observer, and
    /// another application observer held for the connection's lifetime, in this order.
    func makeRegistry(firstExtent: TransactionObservationExtent) -> (
        ObserverRegistry, first: Observer, region: ClosureRegionObserver, second: Observer
    ) {
        var registry = ObserverRegistry()
        let first = Observer()
        let region = regionObserver(table: "player", rowID: 1)
        let second = Observer()
        registry.add(first, extent: firstExtent)
        registry.add(region, extent: .databaseLifetime)
        registry.add(second, extent: .databaseLifetime)
        return (registry, first, region, second)
    }

    func testAnApplicationObserverIsRegisteredOnceAndKeepsItsPlace() {
        var (registry, first, _, second) = makeRegistry(firstExtent: .observerLifetime)
        registry.add(first, extent: .databaseLifetime)  // registered already: nothing
        XCTAssertEqual(registry.userEntries.count, 2)
        XCTAssertEqual(registry.entries.map(\.id), [1, 2, 3], "registration order")
        XCTAssertTrue(registry.userEntries[0].observer === first)
        XCTAssertTrue(registry.userEntries[1].observer === second)

        XCTAssertNotNil(registry.remove(first))
        XCTAssertEqual(registry.userEntries.count, 1)
        XCTAssertTrue(registry.userEntries[0].observer === second)
        registry.add(first, extent: .observerLifetime)
        XCTAssertTrue(registry.userEntries.last?.observer === first, "added again: last")
        XCTAssertEqual(registry.entries.map(\.id), [2, 3, 4])
    }

    func testADeallocatedObserverIsPurgedAndItsAddressMayServeAnotherObserver() throws {
        var registry = ObserverRegistry()
        var dead: Observer? = Observer()
        let deadIdentity = ObjectIdentifier(dead!)
        registry.add(dead!, extent: .observerLifetime)
        dead = nil
        XCTAssertNil(registry.userEntries.first?.observer, "held weakly")
        XCTAssertFalse(registry.isEmpty, "until purged")

        // An object made now often takes the freed address: its entry must be its own.
        var reusing: Observer?
        var others: [Observer] = []
        for _ in 0..<1000 {
            let candidate = Observer()
            if ObjectIdentifier(candidate) == deadIdentity {
                reusing = candidate
                break
            }
            others.append(candidate)
        }
        guard let newcomer = reusing else {
            // (An allocator that keeps freed memory aside, as AddressSanitizer's does.)
            throw XCTSkip("no object took the freed address")
        }
        XCTAssertNil(registry.entry(of: newcomer), "the dead entry is not the newcomer's")
        registry.add(newcomer, extent: .observerLifetime)
        XCTAssertEqual(registry.userEntries.count, 2, "the dead entry waits for its purge")
        XCTAssertTrue(registry.entry(of: newcomer)?.observer === newcomer)
        XCTAssertEqual(registry.entries.count, 2)

        let purged = registry.purgeDeallocatedObservers()
        XCTAssertEqual(purged.count, 1)
        XCTAssertNil(purged.first?.observer)
        XCTAssertTrue(registry.entry(of: newcomer)?.observer === newcomer, "the newcomer stays registered")
        XCTAssertNotNil(registry.remove(newcomer))
        XCTAssertTrue(registry.isEmpty)
        withExtendedLifetime(others) {}
    }

    func testEntriesForTheNextTransactionAreRemovedWithoutTheOthers() {
        var (registry, once, region, always) = makeRegistry(firstExtent: .nextTransaction)
        let removed = registry.removeUserEntries { $0.extent == .nextTransaction }
        XCTAssertEqual(removed.count, 1)
        XCTAssertTrue(removed.first?.observer === once)
        XCTAssertNil(registry.entry(of: once))
        XCTAssertNotNil(registry.entry(of: always))
        XCTAssertNotNil(registry.entry(of: region))
    }

    /// Starting and cancelling thousands of observations: every one is registered once,
    /// then removed, and the registry ends empty. (Each removal looks up the entry by
    /// identity and leaves the others alone: it cost a pass over every entry, and
    /// cancelling n observations cost n², 1.5 s for 4000 in a debug build, 20 ms now.)
    func testThousandsOfObservationsStartAndCancel() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, a)")
            for id in 1...2000 { try db.execute(sql: "INSERT INTO t VALUES (?, 0)", arguments: [id]) }
        }
        let queue = DispatchQueue(label: "values")
        var cancellables = (1...2000).map { id in
            ValueObservation
                .tracking { db in try Int.fetchOne(db, sql: "SELECT a FROM t WHERE id = ?", arguments: [id]) }
                .start(in: dbQueue, scheduling: .async(onQueue: queue), onError: { _ in }, onChange: { _ in })
        }
        try dbQueue.read { _ in }
        XCTAssertEqual(dbQueue.writeWithoutTransaction { $0.observationBroker.registry.entries.count }, 2000)
        cancellables.removeAll()
        try dbQueue.write { _ in }  // (after the removals the cancellations queued)
        XCTAssertEqual(dbQueue.writeWithoutTransaction { $0.observationBroker.registry.isEmpty }, true)
    }
}
