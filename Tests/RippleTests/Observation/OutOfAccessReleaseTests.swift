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
    /// records whether it ran inside a database access, or on a connection's queue (where
    /// the write would be a fatal error, or wait for the queue itself: it is skipped then,
    /// so that the test fails instead).
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
            if AccessContext.current != nil {
                deinits.withLock { $0.append("on a connection's queue") }
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
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let deadline = Date().addingTimeInterval(5)
        while deinits.withLock({ $0.isEmpty }) && Date() < deadline {
            OutOfAccessRelease.waitForPendingReleases()
            usleep(1000)
        }
        XCTAssertEqual(deinits.withLock { $0 }, ["wrote"], message, file: file, line: line)
        XCTAssertEqual(try writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM team") }, 1, message, file: file, line: line)
    }

    /// Inserts a player from another thread; once the fetch that follows the insert waits
    /// for `proceed` (after it signalled `fetching`), cancels, lets the fetch go on, and
    /// waits for the insert. False when no such fetch came.
    private func cancelDuringTheFetchAfterAnInsert(
        _ writer: some DatabaseWriter, _ cancellable: AnyDatabaseCancellable,
        _ fetching: DispatchSemaphore, _ proceed: DispatchSemaphore, _ message: String,
        file: StaticString = #filePath, line: UInt = #line
    ) -> Bool {
        let inserted = DispatchGroup()
        DispatchQueue.global().async(group: inserted) {
            do {
                try writer.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") }
            } catch {
                XCTFail("\(message): \(error)", file: file, line: line)
            }
        }
        guard fetching.wait(timeout: .now() + 5) == .success else {
            proceed.signal()
            XCTFail("\(message): no fetch after the insert", file: file, line: line)
            return false
        }
        cancellable.cancel()
        proceed.signal()
        inserted.wait()
        return true
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
            var observation =
                ValueObservation
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
            cancellable = observation.start(
                in: writer, scheduling: .async(onQueue: queue), onError: { _ in },
                onChange: { value in
                    if keptBy == "onChange" { _ = witness }
                    collector.append(value)
                })
        }
        collector.wait { $0 == [0] }
        // (On a queue, the fetch runs on the writer, in the insert's access, which waits
        // for it; on a pool, on a reader.)
        guard cancelDuringTheFetchAfterAnInsert(writer, cancellable, fetching, proceed, "kept by \(keptBy)") else { return }
        try assertTheWitnessWroteOutOfAccesses(deinits, writer, "kept by \(keptBy)")
        XCTAssertEqual(collector.values, [0], "kept by \(keptBy): nothing delivered after the cancel")
    }

    func testNoEventFollowsTheCancelOfAFetchUnderWay() throws {
        // The fetch under way still holds the `handleEvents` closures after the cancel:
        // they are not called for all that. The fetch fails (didFail), or reads another
        // table (willTrackRegion) after the cancel.
        for (writer, ending) in [
            (try makePlayerDatabase() as any DatabaseWriter, "fails"), (try makePlayerDatabase(), "reads another table"),
            (try makePool(), "fails"), (try makePool(), "reads another table"),
        ] {
            let events = LockedState<[String]>([])
            let deinits = LockedState<[String]>([])
            let fetching = DispatchSemaphore(value: 0)
            let proceed = DispatchSemaphore(value: 0)
            let collector = ValueCollector<Int>()
            struct Failure: Error {}
            let cancellable: AnyDatabaseCancellable
            do {
                // (Kept by a `handleEvents` closure: it goes with them.)
                let witness = Witness(writer, deinits)
                cancellable =
                    ValueObservation
                    .tracking { db -> Int in
                        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
                        if count == 1 {
                            fetching.signal()
                            proceed.wait()
                            if ending == "fails" { throw Failure() }
                            _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM team")
                        }
                        return count
                    }
                    .handleEvents(
                        willTrackRegion: { _ in events.withLock { $0.append("willTrackRegion") } },
                        databaseDidChange: { events.withLock { $0.append("databaseDidChange") } },
                        didFail: { _ in events.withLock { $0.append("didFail") } },
                        didCancel: {
                            _ = witness
                            events.withLock { $0.append("didCancel") }
                        }
                    )
                    .start(in: writer, scheduling: .async(onQueue: queue), onError: { _ in }, onChange: { collector.append($0) })
            }
            collector.wait { $0 == [0] }
            guard cancelDuringTheFetchAfterAnInsert(writer, cancellable, fetching, proceed, "\(type(of: writer)), \(ending)") else { return }
            // The closures go once the fetch's work ended, after anything it notified.
            try assertTheWitnessWroteOutOfAccesses(deinits, writer, "\(type(of: writer)), \(ending)")
            let log = events.withLock { $0 }
            XCTAssertEqual(log.last, "didCancel", "\(type(of: writer)), \(ending): \(log)")
            XCTAssertEqual(log.filter { $0 == "didFail" }, [], "\(type(of: writer)), \(ending)")
        }
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
            cancellable =
                ValueObservation
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

    func testASnapshotObservationReleasesItsClosuresOutOfItsQueue() throws {
        // The snapshot's read is the only holder of the fetch: it must not let it go on the
        // snapshot's queue, where a deinit that reads the snapshot would wait for the
        // queue itself.
        let dbPool = try makePool()
        let snapshot = try dbPool.makeSnapshot()
        for keptBy in ["fetch", "map", "onChange"] {
            let deinits = LockedState<[String]>([])
            let collector = ValueCollector<Int>()
            let cancellable: AnyDatabaseCancellable
            do {
                let witness = Witness(dbPool, deinits)
                cancellable =
                    ValueObservation
                    .tracking { db -> Int in
                        if keptBy == "fetch" { _ = witness }
                        return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
                    }
                    .map { count -> Int in
                        if keptBy == "map" { _ = witness }
                        return count
                    }
                    .start(
                        in: snapshot, scheduling: .async(onQueue: queue), onError: { _ in },
                        onChange: { value in
                            if keptBy == "onChange" { _ = witness }
                            collector.append(value)
                        })
            }
            collector.wait { $0 == [0] }
            queue.sync {}
            try assertTheWitnessWroteOutOfAccesses(deinits, dbPool, "kept by \(keptBy)")
            withExtendedLifetime(cancellable) {}
            try dbPool.write { try $0.execute(sql: "DELETE FROM team") }
        }
    }

    func testCancelsAmidWritesLetEveryClosureGoOutOfAccessesAndTheOthersSeeTheLastCommit() throws {
        // Half the observations are cancelled from one thread while another one writes:
        // the closures of each cancelled one go (once), out of any access; each other one
        // ends with the table's last content.
        let observationCount = 40
        for writer in [try makePlayerDatabase() as any DatabaseWriter, try makePool()] {
            let deinits = LockedState<[String]>([])
            var collectors: [ValueCollector<Int>] = []
            var cancellables: [AnyDatabaseCancellable] = []
            for _ in 0..<observationCount {
                let collector = ValueCollector<Int>()
                let witness = Witness(writer, deinits)
                cancellables.append(
                    ValueObservation
                        .tracking { db -> Int in
                            _ = witness
                            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
                        }
                        .start(in: writer, scheduling: .async(onQueue: .global()), onError: { _ in }, onChange: { collector.append($0) }))
                collectors.append(collector)
            }
            let cancelled = stride(from: 0, to: observationCount, by: 2)
            let toCancel = cancellables
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 {
                    for _ in 0..<100 {
                        _ = try? writer.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") }
                    }
                } else {
                    for index in cancelled {
                        usleep(UInt32.random(in: 0...2000))
                        toCancel[index].cancel()
                    }
                }
            }
            let count = try writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player")! }
            XCTAssertEqual(count, 100)
            for index in stride(from: 1, to: observationCount, by: 2) {
                collectors[index].wait { $0.last == count }
            }
            let deadline = Date().addingTimeInterval(5)
            while deinits.withLock({ $0.count < observationCount / 2 }) && Date() < deadline {
                OutOfAccessRelease.waitForPendingReleases()
                usleep(1000)
            }
            XCTAssertEqual(deinits.withLock { $0 }, Array(repeating: "wrote", count: observationCount / 2), "\(type(of: writer))")
            XCTAssertEqual(try writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM team") }, observationCount / 2)
            withExtendedLifetime(cancellables) {}
        }
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
                    .start(
                        in: writer, onError: { _ in },
                        onChange: { _ in
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
