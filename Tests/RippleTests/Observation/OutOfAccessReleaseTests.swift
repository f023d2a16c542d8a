import Dispatch
import Foundation
import XCTest
@testable import Ripple

/// An observation's closures are never released inside a database access, even when the
/// application cancels while a fetch holds them: a `deinit` they run may use the database
/// (inside an access to the same connection, that use would be refused).
final class OutOfAccessReleaseTests: XCTestCase {
    let queue = DispatchQueue(label: "OutOfAccessReleaseTests")

    /// Captured by one closure of an observation. Its deinit writes to the database, and
    /// records whether it ran inside a database access (where the write would be a fatal
    /// error: it is skipped then, so that the test fails instead).
    final class Witness: @unchecked Sendable {  // immutable; `deinits` is thread-safe
        let writer: any DatabaseWriter
        let deinits: LockedState<[String]>

        init(_ writer: any DatabaseWriter, _ deinits: LockedState<[String]>) {
            self.writer = writer
            self.deinits = deinits
        }

        deinit {
            if AccessChain.isInsideAnyAccess {
                deinits.withLock { $0.append("inside an access") }
                return
            }
            do {
                try writer.write { try $0.execute(sql: "INSERT INTO team (name) VALUES ('deinit')") }
                deinits.withLock { $0.append("wrote") }
            } catch {
                deinits.withLock { $0.append("\(error)") }
            }
        }
    }

    func makePool() throws -> DatabasePool {
        let dbPool = try DatabasePool(path: makeTemporaryDatabasePath(self))
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute(sql: "CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT)")
        }
        return dbPool
    }

    /// Waits until `deinits` has one element, then checks that the deinit wrote, out of
    /// any access: the table holds its row.
    private func assertTheWitnessWroteOutOfAccesses(
        _ deinits: LockedState<[String]>, _ writer: some DatabaseWriter, _ message: String,
        file: StaticString = #filePath, line: UInt = #line) throws
    {
        let deadline = Date().addingTimeInterval(5)
        while deinits.withLock({ $0.isEmpty }) && Date() < deadline {
            OutOfAccessRelease.waitForPendingReleases()
            usleep(1000)
        }
        XCTAssertEqual(deinits.withLock { $0 }, ["wrote"], message, file: file, line: line)
        XCTAssertEqual(try writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM team") }, 1, message, file: file, line: line)
    }

    /// Starts an observation of the player count whose closure `keptBy` alone keeps a
    /// witness; inserts a player; cancels while the fetch that follows the insert runs
    /// (its `map` waits for the cancel); then checks where the witness went.
    private func assertCancelDuringAFetchReleasesOutOfAccesses(_ writer: some DatabaseWriter, keptBy: String) throws {
        let deinits = LockedState<[String]>([])
        let fetching = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let collector = ValueCollector<Int>()
        let cancellable: AnyDatabaseCancellable
        do {
            let witness = Witness(writer, deinits)
            var observation = ValueObservation
                .tracking { db -> Int in
                    if keptBy == "fetch" { _ = witness }
                    return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
                }
                .map { count -> Int in
                    if keptBy == "map" { _ = witness }
                    if count == 1 {
                        fetching.signal()
                        proceed.wait()
                    }
                    return count
                }
            if keptBy == "handleEvents" { observation = observation.handleEvents(willFetch: { _ = witness }) }
            cancellable = observation.start(in: writer, scheduling: .async(onQueue: queue), onError: { _ in }, onChange: { value in
                if keptBy == "onChange" { _ = witness }
                collector.append(value)
            })
        }
        collector.wait { $0 == [0] }
        // (On a queue, the fetch runs on the writer, in the insert's access, which waits
        // for it; on a pool, on a reader.)
        let inserted = DispatchGroup()
        DispatchQueue.global().async(group: inserted) {
            do {
                try writer.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") }
            } catch {
                XCTFail("\(error)")
            }
        }
        guard fetching.wait(timeout: .now() + 5) == .success else {
            proceed.signal()
            return XCTFail("kept by \(keptBy): no fetch after the insert")
        }
        cancellable.cancel()
        proceed.signal()
        inserted.wait()
        try assertTheWitnessWroteOutOfAccesses(deinits, writer, "kept by \(keptBy)")
        XCTAssertEqual(collector.values, [0], "kept by \(keptBy): nothing delivered after the cancel")
    }

    func testACancelDuringAFetchOnTheWriterReleasesTheClosuresOutOfAccesses() throws {
        for keptBy in ["fetch", "map", "onChange", "handleEvents"] {
            try assertCancelDuringAFetchReleasesOutOfAccesses(try makePlayerDatabase(), keptBy: keptBy)
        }
    }

    func testACancelDuringAFetchOnAReaderReleasesTheClosuresOutOfAccesses() throws {
        for keptBy in ["fetch", "map", "onChange", "handleEvents"] {
            try assertCancelDuringAFetchReleasesOutOfAccesses(try makePool(), keptBy: keptBy)
        }
    }

    func testACancelDuringTheFirstFetchReleasesTheClosuresOutOfAccesses() throws {
        // The first fetch of a queue's observation runs in a writer access of its own.
        let dbQueue = try makePlayerDatabase()
        let deinits = LockedState<[String]>([])
        let fetching = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let cancellable: AnyDatabaseCancellable
        do {
            let witness = Witness(dbQueue, deinits)
            cancellable = ValueObservation
                .tracking { db -> Int in
                    _ = witness
                    fetching.signal()
                    proceed.wait()
                    return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
                }
                .start(in: dbQueue, scheduling: .async(onQueue: queue), onError: { _ in }, onChange: { _ in })
        }
        XCTAssertEqual(fetching.wait(timeout: .now() + 5), .success)
        cancellable.cancel()
        proceed.signal()
        dbQueue.writeWithoutTransaction { _ in }  // the first fetch's access ended
        try assertTheWitnessWroteOutOfAccesses(deinits, dbQueue, "first fetch")
    }

    func testARegionObservationReleasesItsHandlerOutOfAccesses() throws {
        // The handler goes once the writer removed the observer: its deinit may write.
        for writer in [try makePlayerDatabase() as any DatabaseWriter, try makePool()] {
            let deinits = LockedState<[String]>([])
            let changes = LockedState(0)
            var cancellable: AnyDatabaseCancellable?
            do {
                let witness = Witness(writer, deinits)
                cancellable = DatabaseRegionObservation(tracking: Table<Row>("player"))
                    .start(in: writer, onError: { _ in }, onChange: { _ in
                        _ = witness
                        changes.withLock { $0 += 1 }
                    })
            }
            try writer.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") }
            XCTAssertEqual(changes.withLock { $0 }, 1)
            cancellable = nil  // cancels
            try assertTheWitnessWroteOutOfAccesses(deinits, writer, "\(type(of: writer))")
            try writer.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('B')") }
            XCTAssertEqual(changes.withLock { $0 }, 1, "nothing after the cancel")
            withExtendedLifetime(cancellable) {}
        }
    }
}
