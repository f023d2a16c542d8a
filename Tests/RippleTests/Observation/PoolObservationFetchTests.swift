import Foundation
import XCTest

@testable import Ripple

/// A pool's observation fetches that wait while another one runs run together, in one
/// snapshot that holds the commit each one follows.
final class PoolObservationFetchTests: XCTestCase {
    /// A pool with one reader (one fetch at a time, whatever the number of cores) whose
    /// fetches wait behind one that runs until `releaseBlocker` is signaled.
    private func makeBlockedPool() throws -> (DatabasePool, releaseBlocker: DispatchSemaphore) {
        var configuration = Configuration()
        configuration.maximumReaderCount = 1
        let dbPool = try DatabasePool(path: makeTemporaryDatabasePath(self), configuration: configuration)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") }
        let blockerStarted = DispatchSemaphore(value: 0)
        let releaseBlocker = DispatchSemaphore(value: 0)
        dbPool.asyncObservationRead { _, _ in
            blockerStarted.signal()
            releaseBlocker.wait()
        }
        blockerStarted.wait()
        return (dbPool, releaseBlocker)
    }

    func testFetchesThatWaitRunInOneSnapshotThatHoldsTheirCommits() throws {
        let (dbPool, releaseBlocker) = try makeBlockedPool()
        let snapshotsBefore = dbPool.observationSnapshots.withLock { $0 }

        // Five fetches, each asked for after a commit, while the blocker runs.
        let results = LockedState<[Int: (count: Int, connection: ObjectIdentifier)]>([:])
        let done = DispatchGroup()
        for index in 1...5 {
            try dbPool.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
            done.enter()
            dbPool.asyncObservationRead { result, _ in
                defer { done.leave() }
                guard case .success(let db) = result, let count = try? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") else { return }
                results.withLock { $0[index] = (count, ObjectIdentifier(db)) }
            }
        }
        releaseBlocker.signal()
        XCTAssertEqual(done.wait(timeout: .now() + 20), .success)

        let fetched = results.withLock { $0 }
        XCTAssertEqual(fetched.count, 5)
        for (index, result) in fetched {
            XCTAssertGreaterThanOrEqual(result.count, index, "the snapshot holds the commit the fetch follows")
        }
        XCTAssertEqual(Set(fetched.values.map(\.count)), [5], "one snapshot, after the last commit")
        XCTAssertEqual(dbPool.observationSnapshots.withLock { $0 } - snapshotsBefore, 1, "one snapshot for the five")
    }

    /// A fetch that ends the shared transaction (it rolls back) leaves the next ones to
    /// open their own, which still see every commit.
    func testAFetchThatEndsTheSnapshotLeavesTheNextOnesTheirOwn() throws {
        let (dbPool, releaseBlocker) = try makeBlockedPool()
        let counts = LockedState<[Int]>([])
        let done = DispatchGroup()
        done.enter()
        dbPool.asyncObservationRead { result, _ in
            defer { done.leave() }
            if case .success(let db) = result { db.rollbackIfInsideTransaction() }
        }
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
        done.enter()
        dbPool.asyncObservationRead { result, _ in
            defer { done.leave() }
            guard case .success(let db) = result else { return }
            // (Out of the ended snapshot: a fetch opens its own, as ValueObservation does.)
            let inside = db.isInsideTransaction
            let count = (try? db.inReadOnlyTransaction { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }) ?? nil
            counts.withLock { $0.append(inside ? -1 : (count ?? -2)) }
        }
        releaseBlocker.signal()
        XCTAssertEqual(done.wait(timeout: .now() + 20), .success)
        XCTAssertEqual(counts.withLock { $0 }, [1])
    }
}
