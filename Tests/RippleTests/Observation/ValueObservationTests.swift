import Dispatch
import Foundation
import XCTest

@testable import Ripple

@Sendable func playerCount(_ db: Database) throws -> Int {
    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
}

final class ValueObservationTests: XCTestCase {
    private let queue = DispatchQueue(label: "ValueObservationTests")

    private func start<V: Sendable>(_ observation: ValueObservation<V>, in writer: some DatabaseWriter) -> (ValueCollector<V>, AnyDatabaseCancellable)
    {
        let collector = ValueCollector<V>()
        let cancellable = observation.start(in: writer, scheduling: .async(onQueue: queue)) { error in
            collector.append(error: error)
        } onChange: { value in
            collector.append(value)
        }
        return (collector, cancellable)
    }

    func testTrackingNotifiesInitialValueThenChanges() throws {
        let dbQueue = try makePlayerDatabase()
        let (collector, cancellable) = start(ValueObservation.tracking(playerCount), in: dbQueue)
        collector.wait { $0 == [0] }
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") }
        collector.wait { $0 == [0, 1] }
        try dbQueue.write { try $0.execute(sql: "INSERT INTO team (id, name) VALUES (1, 'Blue')") }  // unrelated
        try dbQueue.write { try $0.execute(sql: "DELETE FROM player") }
        XCTAssertEqual(collector.wait { $0.count == 3 }, [0, 1, 0])
        withExtendedLifetime(cancellable) {}
    }

    func testAsyncSchedulingOnAConcurrentQueueDeliversInOrder() throws {
        let dbQueue = try makePlayerDatabase()
        let collector = ValueCollector<Int>()
        let cancellable = ValueObservation.tracking(playerCount)
            .start(
                in: dbQueue, scheduling: .async(onQueue: .global()), onError: { collector.append(error: $0) },
                onChange: { value in
                    // (Slow handlers: on a concurrent queue, deliveries would overlap.)
                    usleep(UInt32.random(in: 0...200))
                    collector.append(value)
                })
        collector.wait { $0 == [0] }
        // A database queue fetches once per commit: 300 values, one per commit.
        for _ in 0..<300 {
            try dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") }
        }
        XCTAssertEqual(collector.wait { $0.count == 301 }, Array(0...300))
        withExtendedLifetime(cancellable) {}
    }

    func testImmediateSchedulingDeliversTheInitialValueSynchronously() throws {
        // (XCTest runs tests on the main thread: the main actor.)
        try MainActor.assumeIsolated {
            let dbQueue = try makePlayerDatabase()
            let collector = ValueCollector<Int>()
            let cancellable = ValueObservation.tracking(playerCount).start(in: dbQueue, scheduling: .immediate) { _ in
            } onChange: { value in
                collector.append(value)
            }
            XCTAssertEqual(collector.values, [0], "no wait: synchronous")
            cancellable.cancel()
        }
    }

    func testThousandsOfObservationsOfOneCommitOnADatabaseQueue() throws {
        // Each observation fetches on the writer right after the commit; the fetch of one
        // must not deliver the others' commit callbacks from inside it (they would nest,
        // one level of the stack for each observation, until the stack overflows: 10,000
        // observations crashed a release build).
        let dbQueue = try makePlayerDatabase()
        let count = 2_000
        let collector = ValueCollector<Int>()
        let queue = DispatchQueue(label: "values")
        let cancellables = (0..<count).map { _ in
            ValueObservation.tracking(playerCount)
                .start(in: dbQueue, scheduling: .async(onQueue: queue), onError: { collector.append(error: $0) }, onChange: collector.append)
        }
        collector.wait { $0.count == count }
        // The write, and the fetches after its commit, run on a thread with a small stack
        // (1 MiB): deep enough for any one callback, far too small for callbacks nested
        // two thousand deep.
        let written = DispatchSemaphore(value: 0)
        let writeError = ErrorBox()
        let thread = Thread {
            do {
                try dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
            } catch {
                writeError.error = error
            }
            written.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
        written.wait()
        XCTAssertNil(writeError.error)
        // (Counts only: a failure message with thousands of values is unreadable.)
        let values = collector.wait { $0.count == 2 * count }
        XCTAssertEqual(values.count, 2 * count)
        XCTAssertEqual(values.filter { $0 == 1 }.count, count, "each observation got the new value")
        XCTAssertTrue(collector.errors.isEmpty)
        withExtendedLifetime(cancellables) {}
    }

    func testRegionIsRecordedAgainOnEachFetch() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE setting (useTeams INTEGER); INSERT INTO setting VALUES (0)") }
        // Reads team only when the setting says so: the region changes with the data.
        let observation = ValueObservation.tracking { db -> Int in
            if try Bool.fetchOne(db, sql: "SELECT useTeams FROM setting")! {
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM team")!
            }
            return -1
        }
        let (collector, cancellable) = start(observation, in: dbQueue)
        collector.wait { $0 == [-1] }
        try dbQueue.write { try $0.execute(sql: "UPDATE setting SET useTeams = 1") }
        collector.wait { $0 == [-1, 0] }
        try dbQueue.write { try $0.execute(sql: "INSERT INTO team (id, name) VALUES (1, 'Blue')") }
        collector.wait { $0 == [-1, 0, 1] }
        withExtendedLifetime(cancellable) {}
    }

    func testTheRegionHoldsWhatTheRequestReadsAndNotTheIntrospectionOfItsTable() throws {
        // filter(key:) asks the schema for the table's primary key: that is not what the
        // request reads, and it is not observed (it would be, at the first fetch only,
        // before the schema cache answers).
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'A')") }
        let regions = LockedState<[String]>([])
        let observation = ValueObservation.tracking { db in try Player.filter(key: 1).select(Column("name"), as: String.self).fetchOne(db) }
            .handleEvents(willTrackRegion: { region in regions.withLock { $0.append(region.description) } })
        let (collector, cancellable) = start(observation, in: dbQueue)
        collector.wait { $0 == ["A"] }
        try dbQueue.write { try $0.execute(sql: "UPDATE player SET name = 'B' WHERE id = 1") }
        collector.wait { $0 == ["A", "B"] }
        XCTAssertEqual(regions.withLock { $0 }, ["player(id,name)[1]"])
        withExtendedLifetime(cancellable) {}
    }

    func testWhatExecutedStatementsReadIsTracked() throws {
        // A fetch that writes reads through `execute` too: an observation that missed those
        // reads would miss the changes to them.
        let dbQueue = try makePlayerDatabase()
        var observation = ValueObservation.tracking { db -> Int in
            try db.execute(sql: "CREATE TEMPORARY TABLE copy AS SELECT * FROM player")
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM copy")!
            try db.execute(sql: "DROP TABLE copy")
            return count
        }
        observation.requiresWriteAccess = true
        let regions = LockedState<[String]>([])
        // The application's trace shows no statement of Ripple's (the lookup of the
        // dropped table asks SQLite without SQL).
        let traced = LockedState<[String]>([])
        try dbQueue.write { db in db.trace { event in traced.withLock { $0.append("\(event)") } } }
        let (collector, cancellable) = start(
            observation.handleEvents(willTrackRegion: { region in regions.withLock { $0.append(region.description) } }),
            in: dbQueue)
        collector.wait { $0 == [0] }
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") }
        XCTAssertEqual(collector.wait { $0.count == 2 }, [0, 1])
        let foreign = traced.withLock { $0 }.filter { $0.contains("sqlite_") || $0.uppercased().hasPrefix("PRAGMA") }
        XCTAssertEqual(foreign, [])
        // The temporary table is gone by the end of the fetch: not observed.
        XCTAssertEqual(regions.withLock { $0.first }, "player(id,name,score,teamId)")
        withExtendedLifetime(cancellable) {}
    }

    func testAFetchThatWritesInItsRegionIsNotNotifiedByItself() throws {
        // The value saw the fetch's own writes: their commit does not fetch again (which
        // would fetch forever). Another transaction's write does.
        for writer in [try makePlayerDatabase() as any DatabaseWriter, try DatabasePool(path: makeTemporaryDatabasePath(self))] {
            try writer.write { try $0.execute(sql: "CREATE TABLE IF NOT EXISTS visit (id INTEGER PRIMARY KEY)") }
            var observation = ValueObservation.tracking { db -> Int in
                try db.execute(sql: "INSERT INTO visit DEFAULT VALUES")
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM visit")!
            }
            observation.requiresWriteAccess = true
            let (collector, cancellable) = start(observation, in: writer)
            collector.wait { $0 == [1] }
            try writer.write { try $0.execute(sql: "INSERT INTO visit DEFAULT VALUES") }
            XCTAssertEqual(collector.wait { $0.count == 2 }, [1, 3])
            XCTAssertEqual(try writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM visit") }, 3)
            XCTAssertEqual(collector.values, [1, 3])
            withExtendedLifetime(cancellable) {}
        }
    }

    func testAWriteMadeWhileAnotherFetchCommitsIsSeen() throws {
        // A's fetch writes y, which B reads; B's fetch, run as A's commit is told, writes x,
        // which A reads: only A's own commit is quiet for A, not B's, and A's last value
        // is the latest.
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: "CREATE TABLE x(id INTEGER PRIMARY KEY); CREATE TABLE y(id INTEGER PRIMARY KEY); CREATE TABLE z(id INTEGER PRIMARY KEY)")
        }
        var a = ValueObservation.tracking { db -> Int in
            _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM z")
            try db.execute(sql: "INSERT INTO y DEFAULT VALUES")
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM x")!
        }
        a.requiresWriteAccess = true
        var b = ValueObservation.tracking { db -> Int in
            try db.execute(sql: "INSERT INTO x SELECT NULL WHERE (SELECT COUNT(*) FROM y) = 2 AND (SELECT COUNT(*) FROM x) = 0")
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM y")!
        }
        b.requiresWriteAccess = true
        let (aValues, aCancellable) = start(a, in: dbQueue)
        aValues.wait { $0 == [0] }
        let (bValues, bCancellable) = start(b, in: dbQueue)
        bValues.wait { $0 == [1] }
        try dbQueue.write { try $0.execute(sql: "INSERT INTO z DEFAULT VALUES") }
        let truth = try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM x") }
        XCTAssertEqual(truth, 1)
        XCTAssertEqual(aValues.wait { $0.last == truth }.last, truth)
        withExtendedLifetime((aCancellable, bCancellable)) {}
    }

    func testASchemaChangeFetchesATrackingObservationAgain() throws {
        // A view redefined changes what the fetch reads, though no table's content changed.
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'A', 10), (2, 'B', 20)")
            try db.execute(sql: "CREATE VIEW best AS SELECT name FROM player WHERE score >= 20")
        }
        let tracking = ValueObservation.tracking { db in try String.fetchAll(db, sql: "SELECT name FROM best ORDER BY name") }
        let (collector, cancellable) = start(tracking, in: dbQueue)
        // An explicit region of the player table is not told of the schema.
        let explicit = ValueObservation.tracking(region: Table("player")) { db in try String.fetchAll(db, sql: "SELECT name FROM best ORDER BY name")
        }
        let (explicitCollector, explicitCancellable) = start(explicit, in: dbQueue)
        collector.wait { $0 == [["B"]] }
        explicitCollector.wait { $0 == [["B"]] }
        try dbQueue.write { db in
            try db.execute(sql: "DROP VIEW best")
            try db.execute(sql: "CREATE VIEW best AS SELECT name FROM player WHERE score >= 10")
        }
        collector.wait { $0 == [["B"], ["A", "B"]] }
        try dbQueue.write { try $0.execute(sql: "UPDATE player SET score = 30 WHERE id = 1") }
        collector.wait { $0 == [["B"], ["A", "B"], ["A", "B"]] }
        explicitCollector.wait { $0 == [["B"], ["A", "B"]] }
        withExtendedLifetime((cancellable, explicitCancellable)) {}
    }

    func testATemporaryTableThatHidesTheObservedOneFetchesAgain() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'A')") }
        let (collector, cancellable) = start(ValueObservation.tracking { db in try String.fetchAll(db, sql: "SELECT name FROM player") }, in: dbQueue)
        collector.wait { $0 == [["A"]] }
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TEMP TABLE player (name TEXT)")
        }
        collector.wait { $0 == [["A"], []] }
        try dbQueue.write { try $0.execute(sql: "INSERT INTO temp.player VALUES ('T')") }
        collector.wait { $0 == [["A"], [], ["T"]] }
        withExtendedLifetime(cancellable) {}
    }

    func testChangesOfTheSchemaToldByTheApplicationFetchATrackingObservationAgain() throws {
        // `notifyChanges(in: Table("sqlite_master"))` is a change of the schema: it reaches
        // tracking observations, whatever their region, and not the others.
        let dbQueue = try makePlayerDatabase()
        let fetches = ChangeCounter()
        let (collector, cancellable) = start(
            ValueObservation.tracking { db -> Int in
                fetches.increment()
                return try playerCount(db)
            }, in: dbQueue)
        let constantFetches = ChangeCounter()
        let (constantCollector, constantCancellable) = start(
            ValueObservation.trackingConstantRegion { db -> Int in
                constantFetches.increment()
                return try playerCount(db)
            }, in: dbQueue)
        collector.wait { $0 == [0] }
        constantCollector.wait { $0 == [0] }
        try dbQueue.write { try $0.notifyChanges(in: Table("sqlite_master")) }
        collector.wait { $0 == [0, 0] }
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") }
        collector.wait { $0 == [0, 0, 1] }
        constantCollector.wait { $0 == [0, 1] }
        XCTAssertEqual(fetches.count, 3)
        XCTAssertEqual(constantFetches.count, 2, "a constant region is not told of the schema")
        withExtendedLifetime((cancellable, constantCancellable)) {}
    }

    func testASchedulerThatRunsItsActionsAtOnce() throws {
        // Ripple asks for one delivery at a time, with no lock held: a scheduler may run it
        // on the spot, and its handler may cancel the observation.
        struct InlineScheduler: ValueObservationScheduler {
            func immediateInitialValue() -> Bool { false }
            func schedule(_ action: @escaping @Sendable () -> Void) { action() }
        }
        let dbQueue = try makePlayerDatabase()
        let collector = ValueCollector<Int>()
        let cancellable = LockedState<AnyDatabaseCancellable?>(nil)
        let observation = ValueObservation.tracking(playerCount)
        cancellable.withLock {
            $0 = observation.start(
                in: dbQueue, scheduling: InlineScheduler(), onError: { collector.append(error: $0) },
                onChange: { value in
                    collector.append(value)
                    if value == 2 { cancellable.withLock { $0 }?.cancel() }
                })
        }
        collector.wait { $0 == [0] }
        for _ in 0..<3 { try dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") } }
        dbQueue.writeWithoutTransaction { _ in }
        XCTAssertEqual(collector.values, [0, 1, 2], "nothing after the cancel")
    }

    func testACancelledObservationLetsItsClosuresGo() throws {
        // A closure of the observation (its handler, its fetch, a handleEvents closure)
        // that keeps the cancellable makes no cycle once cancelled.
        final class Owner: @unchecked Sendable {  // only used on the test's queue
            var cancellable: AnyDatabaseCancellable?
        }
        let dbQueue = try makePlayerDatabase()
        for keptBy in ["onChange", "fetch", "handleEvents"] {
            weak var weakOwner: Owner?
            let delivered = ValueCollector<Int>()
            do {
                let owner = Owner()
                weakOwner = owner
                var observation = ValueObservation.tracking { db in
                    if keptBy == "fetch" { _ = owner }
                    return try playerCount(db)
                }
                if keptBy == "handleEvents" { observation = observation.handleEvents(didCancel: { _ = owner }) }
                owner.cancellable = observation.start(
                    in: dbQueue, scheduling: .async(onQueue: queue), onError: { _ in },
                    onChange: { value in
                        if keptBy == "onChange" { _ = owner }
                        delivered.append(value)
                    })
                delivered.wait { $0 == [0] }
                queue.sync { owner.cancellable?.cancel() }
            }
            dbQueue.writeWithoutTransaction { _ in }  // the removal from the broker ran
            queue.sync {}
            // (A cancel while the writer's block that delivered the value still ran leaves
            // the closures to the end of that block, which releases them out of its access.)
            OutOfAccessRelease.waitForPendingReleases()
            XCTAssertNil(weakOwner, "kept by \(keptBy): let go once cancelled")
        }
    }

    func testCancelReleasesTheHandlersOutsideOfTheObservationsLock() throws {
        // A handler's last reference may go with the cancel: its deinit may write to the
        // observed table, whose commit reaches the observation.
        final class Saver: @unchecked Sendable {
            let dbQueue: DatabaseQueue
            init(_ dbQueue: DatabaseQueue) { self.dbQueue = dbQueue }
            deinit { try? dbQueue.write { try $0.execute(sql: "INSERT INTO team (name) VALUES ('x')") } }
        }
        let dbQueue = try makePlayerDatabase()
        let collector = ValueCollector<Int>()
        var saver: Saver? = Saver(dbQueue)
        let cancellable = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM team")! }
            .start(
                in: dbQueue, scheduling: .async(onQueue: queue), onError: { _ in },
                onChange: { [saver] value in
                    _ = saver
                    collector.append(value)
                })
        saver = nil
        collector.wait { $0 == [0] }
        // The cancel must let the last reference go: the block that delivered the value
        // (on `queue`) and the writer's block that scheduled it (on the writer) may still
        // hold the handler for a moment after the value arrived. Both have ended after
        // these two. (Without them, the handler went later, after the check below, in 14
        // runs of 40 of this test alone; and once, under AddressSanitizer, the deinit's
        // write was refused as an access started inside an access to the connection.)
        queue.sync {}
        dbQueue.writeWithoutTransaction { _ in }
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            cancellable.cancel()
            done.signal()
        }
        guard done.wait(timeout: .now() + 5) == .success else {
            // (A deadlock: the process cannot go on.)
            fatalError("cancel() deadlocked")
        }
        XCTAssertEqual(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM team") }, 1, "the deinit wrote")
    }

    func testDeliveredValuesGoOutsideOfTheObservationsLock() throws {
        // A value may be an object whose deinit writes to the observed table: the commit
        // reaches the observation, which must not be waiting for its own lock then.
        final class Count: @unchecked Sendable {  // immutable
            let value: Int
            let dbQueue: DatabaseQueue
            init(_ value: Int, _ dbQueue: DatabaseQueue) {
                self.value = value
                self.dbQueue = dbQueue
            }
            deinit {
                if value == 0 { try? dbQueue.write { try $0.execute(sql: "INSERT INTO team (name) VALUES ('deinit')") } }
            }
        }
        let dbQueue = try makePlayerDatabase()
        let scheduler = ManualScheduler()
        let delivered = ValueCollector<Int>()
        let cancellable = ValueObservation.tracking { db in Count(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM team")!, dbQueue) }
            .start(in: dbQueue, scheduling: scheduler, onError: { _ in }, onChange: { delivered.append($0.value) })
        try dbQueue.write { try $0.execute(sql: "INSERT INTO team (name) VALUES ('A')") }
        // Two values wait for the one delivery: 0, then 1.
        guard let delivery = scheduler.takeNext() else { return XCTFail("no delivery scheduled") }
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            delivery()
            done.signal()
        }
        guard done.wait(timeout: .now() + 5) == .success else {
            // (A deadlock: the process cannot go on.)
            fatalError("the delivery deadlocked")
        }
        XCTAssertEqual(delivered.values, [0, 1])
        // The deinit of 0 wrote: its value comes in the next delivery.
        scheduler.runNext()
        XCTAssertEqual(delivered.values, [0, 1, 2])
        withExtendedLifetime(cancellable) {}
    }

    func testADeliveryTakesTheValuesThatWaitedAndNotThoseThatCameMeanwhile() throws {
        // So that an observation never holds its scheduler's queue (the main queue) for
        // as long as values keep coming.
        let dbQueue = try makePlayerDatabase()
        let scheduler = ManualScheduler()
        let delivered = LockedState<[Int]>([])
        let cancellable = ValueObservation.tracking(playerCount).start(
            in: dbQueue, scheduling: scheduler, onError: { _ in },
            onChange: { value in
                delivered.withLock { $0.append(value) }
                if value == 0 {
                    // A commit while the delivery runs: its value comes in the next delivery.
                    try? dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") }
                }
            })
        dbQueue.writeWithoutTransaction { _ in }  // the initial value was fetched
        XCTAssertEqual(scheduler.waitingActions, 1)
        scheduler.runNext()
        XCTAssertEqual(delivered.withLock { $0 }, [0], "the value that came during the delivery waits for the next one")
        XCTAssertEqual(scheduler.waitingActions, 1, "the next delivery is scheduled")
        scheduler.runNext()
        XCTAssertEqual(delivered.withLock { $0 }, [0, 1])
        XCTAssertEqual(scheduler.waitingActions, 0)
        withExtendedLifetime(cancellable) {}
    }

    func testTrackingExplicitRegion() throws {
        let dbQueue = try makePlayerDatabase()
        let observation = ValueObservation.tracking(region: Table("team")) { db in try playerCount(db) }
        let (collector, cancellable) = start(observation, in: dbQueue)
        collector.wait { $0 == [0] }
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") }  // not the region
        try dbQueue.write { try $0.execute(sql: "INSERT INTO team (id, name) VALUES (1, 'Blue')") }
        XCTAssertEqual(collector.wait { $0.count == 2 }, [0, 1])
        withExtendedLifetime(cancellable) {}
    }

    func testRemoveDuplicatesAndMap() throws {
        let dbQueue = try makePlayerDatabase()
        let observation = ValueObservation.trackingConstantRegion(playerCount).removeDuplicates().map { "\($0) players" }
        let (collector, cancellable) = start(observation, in: dbQueue)
        collector.wait { $0 == ["0 players"] }
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") }
        try dbQueue.write { try $0.execute(sql: "UPDATE player SET score = 1") }  // same count
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('B')") }
        XCTAssertEqual(collector.wait { $0.count == 3 }, ["0 players", "1 players", "2 players"])
        withExtendedLifetime(cancellable) {}
    }

    func testRowLevelTrackingIsNotRefetchedForOtherRows() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'A'), (2, 'B')") }
        let fetches = ChangeCounter()
        let observation = ValueObservation.tracking { db -> String? in
            fetches.increment()
            return try Player.filter(key: 1).fetchOne(db)?.name
        }
        let (collector, cancellable) = start(observation, in: dbQueue)
        collector.wait { $0 == ["A"] }
        try dbQueue.write { try $0.execute(sql: "UPDATE player SET name = 'X' WHERE id = 2") }
        try dbQueue.write { try $0.execute(sql: "UPDATE player SET name = 'Z' WHERE id = 1") }
        collector.wait { $0 == ["A", "Z"] }
        XCTAssertEqual(fetches.count, 2)
        withExtendedLifetime(cancellable) {}
    }

    func testRegionOfARequestPreparedButNotRunDoesNotHideTheNextStatement() throws {
        // A key-filtered request records its rowids when it is prepared; a request prepared
        // and not run must not keep the next statement's region from being recorded.
        let dbQueue = try makePlayerDatabase()
        let observation = ValueObservation.tracking { db -> Int in
            _ = try Player.filter(key: 1).makePreparedRequest(db, forSingleResult: false)
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM team") ?? 0
        }
        let (collector, cancellable) = start(observation, in: dbQueue)
        collector.wait { $0 == [0] }
        try dbQueue.write { try $0.execute(sql: "INSERT INTO team (name) VALUES ('Red')") }
        collector.wait { $0 == [0, 1] }
        withExtendedLifetime(cancellable) {}
    }

    func testValuesComeInOrderAndEndWithTheFinalState() throws {
        let dbQueue = try makePlayerDatabase()
        let (collector, cancellable) = start(ValueObservation.tracking(playerCount), in: dbQueue)
        collector.wait { $0 == [0] }
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<25 { try! dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('x')") } }
        }
        let values = collector.wait { $0.last == 100 }
        XCTAssertEqual(values, values.sorted(), "chronological order")
        XCTAssertEqual(Set(values).count, values.count, "every value is the state after a distinct commit")
        withExtendedLifetime(cancellable) {}
    }

    func testNoValueAfterCancel() throws {
        let dbQueue = try makePlayerDatabase()
        let (collector, cancellable) = start(ValueObservation.tracking(playerCount), in: dbQueue)
        collector.wait { $0 == [0] }
        cancellable.cancel()
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") }
        dbQueue.writeWithoutTransaction { _ in }  // let pending work drain
        queue.sync {}
        XCTAssertEqual(collector.values, [0])
    }

    func testAHandlerThatCancelsIsTheLastOneCalled() throws {
        // Three values wait for one delivery; the handler of the first cancels: the
        // delivery under way stops there.
        let dbQueue = try makePlayerDatabase()
        let scheduler = ManualScheduler()
        let delivered = LockedState<[Int]>([])
        let cancellable = LockedState<AnyDatabaseCancellable?>(nil)
        cancellable.withLock {
            $0 = ValueObservation.tracking(playerCount).start(
                in: dbQueue, scheduling: scheduler, onError: { _ in },
                onChange: { value in
                    delivered.withLock { $0.append(value) }
                    cancellable.withLock { $0 }?.cancel()
                })
        }
        for _ in 0..<2 { try dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") } }
        XCTAssertEqual(scheduler.waitingActions, 1, "one delivery for the three values")
        scheduler.runNext()
        XCTAssertEqual(delivered.withLock { $0 }, [0], "nothing after the cancel")
        XCTAssertEqual(scheduler.waitingActions, 0)
    }

    func testStartAndCancelAtOnceFromManyThreads() throws {
        let dbQueue = try makePlayerDatabase()
        DispatchQueue.concurrentPerform(iterations: 50) { _ in
            let cancellable = ValueObservation.tracking { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player")! }
                .start(in: dbQueue, scheduling: .async(onQueue: .global()), onError: { _ in }, onChange: { _ in })
            cancellable.cancel()
        }
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") }
    }

    func testCancelledObservationIsReleased() throws {
        let dbQueue = try makePlayerDatabase()
        weak var weakRunner: AnyObject?
        do {
            let (collector, cancellable) = start(ValueObservation.tracking(playerCount), in: dbQueue)
            collector.wait { $0 == [0] }
            cancellable.cancel()
        }
        dbQueue.writeWithoutTransaction { db in
            // The observer was removed from the broker.
            XCTAssertFalse(db.observationBroker.hasObservers)
        }
        _ = weakRunner
        weakRunner = nil
    }

    func testErrorsAreNotified() throws {
        let dbQueue = try makePlayerDatabase()
        let (collector, cancellable) = start(
            ValueObservation.tracking { db -> Int? in try Int.fetchOne(db, sql: "SELECT * FROM missing") }, in: dbQueue)
        let deadline = Date().addingTimeInterval(5)
        while collector.errors.isEmpty && Date() < deadline { usleep(1000) }
        XCTAssertEqual((collector.errors.first as? DatabaseError)?.message, "no such table: missing")
        withExtendedLifetime(cancellable) {}
    }

    func testThrottleCoalescesBursts() throws {
        let dbQueue = try makePlayerDatabase()
        let fetches = ChangeCounter()
        let observation = ValueObservation.tracking { db -> Int in
            fetches.increment()
            return try playerCount(db)
        }.throttle(for: 0.2)
        let (collector, cancellable) = start(observation, in: dbQueue)
        collector.wait { $0 == [0] }
        for _ in 0..<50 { try dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('x')") } }
        collector.wait { $0.last == 50 }
        XCTAssertLessThan(fetches.count, 10, "a burst is fetched a few times, not 50")
        withExtendedLifetime(cancellable) {}
    }

    // MARK: - Pool

    func testPoolObservationsOfSustainedCommitsEndWithTheTablesContent() throws {
        // Commits that keep coming make the pool's reader pause between batches of fetches
        // (ObservationBatchPacing): fewer values than commits, and the last one is what the
        // tables hold, for each of several observations.
        let dbPool = try DatabasePool(path: makeTemporaryDatabasePath(self))
        try dbPool.write { try $0.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)") }
        let collectors = (0..<5).map { _ in ValueCollector<Int>() }
        let cancellables = collectors.enumerated().map { index, collector in
            ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) + ? FROM player", arguments: [index])! }
                .start(in: dbPool, scheduling: .async(onQueue: queue), onError: { collector.append(error: $0) }, onChange: { collector.append($0) })
        }
        for _ in 0..<300 {
            try dbPool.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('x')") }
        }
        let count = try dbPool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player")! }
        XCTAssertEqual(count, 300)
        for (index, collector) in collectors.enumerated() {
            collector.wait { $0.last == count + index }
            let values = collector.values
            XCTAssertEqual(values, values.sorted(), "values in commit order")
        }
        withExtendedLifetime(cancellables) {}
    }

    func testPoolFetchesFromReaders() throws {
        let dbPool = try DatabasePool(path: makeTemporaryDatabasePath(self))
        try dbPool.write { try $0.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)") }
        let connections = SQLRecorder()
        let observation = ValueObservation.tracking { db -> Int in
            connections.record(db.description)
            return try playerCount(db)
        }
        let (collector, cancellable) = start(observation, in: dbPool)
        collector.wait { $0 == [0] }
        try dbPool.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") }
        collector.wait { $0 == [0, 1] }
        XCTAssertTrue(connections.statements.allSatisfy { $0.contains("reader") }, "\(connections.statements)")
        withExtendedLifetime(cancellable) {}
    }

    func testPoolFetchDoesNotBlockTheWriter() throws {
        let dbPool = try DatabasePool(path: makeTemporaryDatabasePath(self))
        try dbPool.write { try $0.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)") }
        let fetchMayEnd = DispatchSemaphore(value: 0)
        let slowFetchStarted = DispatchSemaphore(value: 0)
        let observation = ValueObservation.tracking { db -> Int in
            let count = try playerCount(db)
            if count == 1 {
                slowFetchStarted.signal()
                // Waits for a write that can only happen if the writer is free.
                _ = fetchMayEnd.wait(timeout: .now() + 5)
            }
            return count
        }
        let (collector, cancellable) = start(observation, in: dbPool)
        collector.wait { $0 == [0] }
        try dbPool.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") }
        XCTAssertEqual(slowFetchStarted.wait(timeout: .now() + 5), .success)
        try dbPool.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('B')") }
        fetchMayEnd.signal()
        XCTAssertEqual(collector.wait { $0.last == 2 }.prefix(2), [0, 1], "the slow fetch saw its own snapshot")
        withExtendedLifetime(cancellable) {}
    }

    func testPoolObservationWhoseFetchWritesToThePool() throws {
        // The fetch runs on a reader, so the writer is free: the write cannot deadlock.
        // It logs each fetch in a table the observation does not read.
        let dbPool = try DatabasePool(path: makeTemporaryDatabasePath(self))
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT); CREATE TABLE fetchLog (count INTEGER)")
        }
        let observation = ValueObservation.tracking { db -> Int in
            let count = try playerCount(db)
            try dbPool.write { try $0.execute(sql: "INSERT INTO fetchLog VALUES (?)", arguments: [count]) }
            return count
        }
        // A write made during the first fetch, before the observation knows its region,
        // may cause one more fetch, as in GRDB: duplicates are removed.
        let (collector, cancellable) = start(observation.removeDuplicates(), in: dbPool)
        collector.wait { $0 == [0] }
        try dbPool.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") }
        collector.wait { $0 == [0, 1] }
        XCTAssertTrue(collector.errors.isEmpty, "\(collector.errors)")
        let log = try dbPool.read { try Int.fetchAll($0, sql: "SELECT count FROM fetchLog") }
        XCTAssertEqual(log.last, 1)
        XCTAssertEqual(Set(log), [0, 1])
        withExtendedLifetime(cancellable) {}
    }

    func testPoolWritesMadeOnDeliveryAreObservedInOrder() throws {
        // The application writes again as soon as it sees each value: every commit then
        // comes right after a delivery, while the fetch that produced it may still be
        // finishing on its reader. Values must still arrive in commit order, and the last
        // one must be the final state.
        let dbPool = try DatabasePool(path: makeTemporaryDatabasePath(self))
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE counter (id INTEGER PRIMARY KEY, value INTEGER NOT NULL)")
            try db.execute(sql: "INSERT INTO counter VALUES (1, 0)")
        }
        let last = 100
        let collector = ValueCollector<Int>()
        let cancellable =
            ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT value FROM counter WHERE id = 1") ?? -1 }
            .start(in: dbPool, scheduling: .async(onQueue: queue)) { error in
                collector.append(error: error)
            } onChange: { value in
                collector.append(value)
                guard value < last else { return }
                do {
                    try dbPool.write { try $0.execute(sql: "UPDATE counter SET value = ? WHERE id = 1", arguments: [value + 1]) }
                } catch {
                    collector.append(error: error)
                }
            }
        let values = collector.wait { $0.last == last }
        XCTAssertEqual(values, values.sorted(), "in commit order")
        XCTAssertEqual(Set(values), Set(0...last), "every state seen")
        XCTAssertTrue(collector.errors.isEmpty, "\(collector.errors)")
        withExtendedLifetime(cancellable) {}
    }

    // MARK: - AsyncSequence

    func testValuesAsyncSequence() async throws {
        let dbQueue = try makePlayerDatabase()
        var iterator = ValueObservation.tracking(playerCount).values(in: dbQueue).makeAsyncIterator()
        let first = try await iterator.next()
        XCTAssertEqual(first, 0)
        try await dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") }
        let second = try await iterator.next()
        XCTAssertEqual(second, 1)
    }

    func testCancellingTheTaskCancelsTheObservation() async throws {
        let dbQueue = try makePlayerDatabase()
        let observation = ValueObservation.tracking(playerCount)
        let task = Task {
            var values: [Int] = []
            for try await value in observation.values(in: dbQueue) {
                values.append(value)
            }
            return values
        }
        try await Task.sleep(nanoseconds: 50_000_000)
        task.cancel()
        _ = try? await task.value
        try await Task.sleep(nanoseconds: 50_000_000)
        let hasObservers = try await dbQueue.writeWithoutTransaction { db in db.observationBroker.hasObservers }
        XCTAssertFalse(hasObservers)
    }
}

/// An error written by another thread before it signals, read after the wait.
private final class ErrorBox: @unchecked Sendable {  // the semaphore orders the write before the read
    var error: (any Error)?
}

/// A scheduler whose actions run when the test says so.
private final class ManualScheduler: ValueObservationScheduler, @unchecked Sendable {  // `actions` is behind its lock
    private let actions = LockedState<[@Sendable () -> Void]>([])

    var waitingActions: Int { actions.withLock { $0.count } }

    func immediateInitialValue() -> Bool { false }

    func schedule(_ action: @escaping @Sendable () -> Void) {
        actions.withLock { $0.append(action) }
    }

    func takeNext() -> (@Sendable () -> Void)? {
        actions.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }

    func runNext(file: StaticString = #filePath, line: UInt = #line) {
        guard let action = takeNext() else { return XCTFail("no action scheduled", file: file, line: line) }
        action()
    }
}
