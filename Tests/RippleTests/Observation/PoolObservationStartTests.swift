import CSQLite
import Dispatch
import Foundation
import XCTest

@testable import Ripple

/// A pool's value observation starts from a reader: its first value never waits for a
/// write transaction, and the commits that come between its reader's snapshot and its
/// registration on the writer are seen all the same (issue 16).
final class PoolObservationStartTests: XCTestCase {
    let queue = DispatchQueue(label: "PoolObservationStartTests")

    func makePool(observesExternalChanges: Bool = true) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.observesExternalChanges = observesExternalChanges
        let dbPool = try DatabasePool(path: makeTemporaryDatabasePath(self), configuration: configuration)
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute(sql: "CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT)")
        }
        return dbPool
    }

    private func startCount(in dbPool: DatabasePool, fetches: LockedCounter? = nil) -> (ValueCollector<Int>, AnyDatabaseCancellable) {
        let collector = ValueCollector<Int>()
        let cancellable =
            ValueObservation
            .tracking { db -> Int in
                fetches?.increment()
                return try playerCount(db)
            }
            .start(in: dbPool, scheduling: .async(onQueue: queue)) { error in
                collector.append(error: error)
            } onChange: { value in
                collector.append(value)
            }
        return (collector, cancellable)
    }

    /// Runs a write transaction on another thread that runs `sql` (inserts a player), and
    /// stays open until `end` is called; returns once `sql` ran.
    func beginLongWrite(_ dbPool: DatabasePool, sql: String = "INSERT INTO player (name) VALUES ('Arthur')") -> (
        end: () -> Void, ended: DispatchSemaphore
    ) {
        let inserted = DispatchSemaphore(value: 0)
        let mayEnd = DispatchSemaphore(value: 0)
        let ended = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? dbPool.write { db in
                try db.execute(sql: sql)
                inserted.signal()
                _ = mayEnd.wait(timeout: .now() + 20)
            }
            ended.signal()
        }
        inserted.wait()
        return ({ mayEnd.signal() }, ended)
    }

    func testFirstValuesDoNotWaitForAWriteTransaction() throws {
        let dbPool = try makePool()
        let write = beginLongWrite(dbPool)
        // While the write transaction is open, 100 observations start and get their first
        // value: the state before the transaction.
        let observations = (0..<100).map { _ in startCount(in: dbPool) }
        for (collector, _) in observations {
            collector.wait { $0 == [0] }
        }
        XCTAssertEqual(write.ended.wait(timeout: .now()), .timedOut, "the write is still open")
        write.end()
        XCTAssertEqual(write.ended.wait(timeout: .now() + 5), .success)
        // The transaction that ended then is seen by every one of them.
        for (collector, _) in observations {
            collector.wait { $0 == [0, 1] }
            XCTAssertTrue(collector.errors.isEmpty, "\(collector.errors)")
        }
        withExtendedLifetime(observations) {}
    }

    func testACommitOfAnotherConnectionBeforeTheRegistrationIsSeen() throws {
        // Without the file watch, only the start itself can notice the commit.
        let dbPool = try makePool(observesExternalChanges: false)
        // The writer is busy (no transaction, so the other connection can write).
        let writerBusy = DispatchSemaphore(value: 0)
        let writerMayGo = DispatchSemaphore(value: 0)
        dbPool.asyncWriteWithoutTransaction { _ in
            writerBusy.signal()
            _ = writerMayGo.wait(timeout: .now() + 20)
        }
        writerBusy.wait()
        let (collector, cancellable) = startCount(in: dbPool)
        collector.wait { $0 == [0] }
        var connection: OpaquePointer?
        XCTAssertEqual(sqlite3_open_v2(dbPool.path, &connection, SQLITE_OPEN_READWRITE, nil), SQLITE_OK)
        XCTAssertEqual(sqlite3_exec(connection, "INSERT INTO player (name) VALUES ('Barbara')", nil, nil, nil), SQLITE_OK)
        sqlite3_close_v2(connection)
        // The observation registers now: the commit came after its snapshot.
        writerMayGo.signal()
        collector.wait { $0 == [0, 1] }
        withExtendedLifetime(cancellable) {}
    }

    func testNoSecondFetchWhenNothingWasCommittedSinceTheSnapshot() throws {
        let dbPool = try makePool()
        let fetches = LockedCounter()
        let (collector, cancellable) = startCount(in: dbPool, fetches: fetches)
        collector.wait { $0 == [0] }
        // The observation registered before its first value was delivered.
        dbPool.writeWithoutTransaction { _ in }
        XCTAssertEqual(fetches.value, 1)
        // It observes its region from then on, and only it.
        try dbPool.write { try $0.execute(sql: "INSERT INTO team (name) VALUES ('Red')") }
        try dbPool.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
        collector.wait { $0 == [0, 1] }
        XCTAssertEqual(fetches.value, 2)
        withExtendedLifetime(cancellable) {}
    }

    func testTheFirstObserverCommitsNothing() throws {
        // Observing writes nothing to the file: an observation that took its snapshot
        // before the first observer came has nothing to fetch again.
        let dbPool = try makePool()
        let observer = PassiveObserver()
        try dbPool.writeWithoutTransaction { db in
            let mark = try XCTUnwrap(db.lastCommitMark())
            XCTAssertTrue(db.noCommitChangedData(since: mark))
            // The first observer starts the tracking of the file (and its WAL hook).
            db.add(transactionObserver: observer, extent: .databaseLifetime)
            XCTAssertEqual(db.lastCommitMark(), mark, "no commit")
            XCTAssertTrue(db.noCommitChangedData(since: mark))
            try db.execute(sql: "INSERT INTO team (name) VALUES ('Red')")
            XCTAssertFalse(db.noCommitChangedData(since: mark), "a commit of data")
            XCTAssertFalse(db.noCommitChangedData(since: nil), "an unknown mark")
        }
    }
}

/// A fetch that pauses, once asked, when it reads a given flag.
private final class FetchPause: @unchecked Sendable {  // `flag` behind `lock`; semaphores are thread-safe
    private let lock = NSLock()
    private var flag: Int?
    let paused = DispatchSemaphore(value: 0)
    private let resumed = DispatchSemaphore(value: 0)

    func pause(atFlag flag: Int) { lock.withLock { self.flag = flag } }
    func resume() { resumed.signal() }

    func fetchDidRead(flag: Int) {
        let pauses = lock.withLock { () -> Bool in
            guard self.flag == flag else { return false }
            self.flag = nil
            return true
        }
        guard pauses else { return }
        paused.signal()
        _ = resumed.wait(timeout: .now() + 10)
    }
}

extension PoolObservationStartTests {
    /// An observation that reads `a` or `b`, as `config.flag` says (0: neither), and
    /// gives `flag * 1000 + count`; started and registered.
    private func startFlagObservation(in dbPool: DatabasePool, pause: FetchPause) throws -> (ValueCollector<Int>, AnyDatabaseCancellable) {
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE config (flag INTEGER); INSERT INTO config VALUES (0)")
            try db.execute(sql: "CREATE TABLE a (x); CREATE TABLE b (x)")
        }
        let collector = ValueCollector<Int>()
        let cancellable =
            ValueObservation
            .tracking { db -> Int in
                let flag = try Int.fetchOne(db, sql: "SELECT flag FROM config")!
                let count = flag == 0 ? 0 : try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(flag == 1 ? "a" : "b")")!
                pause.fetchDidRead(flag: flag)
                return flag * 1000 + count
            }
            .start(in: dbPool, scheduling: .async(onQueue: queue)) { error in
                collector.append(error: error)
            } onChange: { value in
                collector.append(value)
            }
        collector.wait { $0 == [0] }
        dbPool.writeWithoutTransaction { _ in }  // registered
        return (collector, cancellable)
    }

    /// Sets the flag, and waits until the fetch it causes pauses.
    private func startPausedFetch(of flag: Int, in dbPool: DatabasePool, pause: FetchPause) throws {
        pause.pause(atFlag: flag)
        try dbPool.write { try $0.execute(sql: "UPDATE config SET flag = ?", arguments: [flag]) }
        XCTAssertEqual(pause.paused.wait(timeout: .now() + 5), .success)
    }

    /// Commits to `b` while a paused fetch of `b` runs, lets the fetch go, and waits for a
    /// value that holds the commit.
    private func assertCommitToBIsSeen(in dbPool: DatabasePool, pause: FetchPause, _ collector: ValueCollector<Int>) throws {
        try dbPool.write { try $0.execute(sql: "INSERT INTO b VALUES (1)") }
        pause.resume()
        collector.wait { $0.last == 2001 }
        XCTAssertTrue(collector.errors.isEmpty, "\(collector.errors)")
    }

    func testARefetchWhoseRegionGrowsSeesTheCommitsMadeWhileItRuns() throws {
        // The observation reads `a` or `b`, as `config.flag` says. A commit that comes
        // while a fetch is already running asks for one more fetch; that fetch may read a
        // table that the observed region does not hold yet: commits made while it runs
        // must not be missed.
        let dbPool = try makePool()
        let pause = FetchPause()
        let (collector, cancellable) = try startFlagObservation(in: dbPool, pause: pause)
        // A fetch of `a` runs, and pauses.
        try startPausedFetch(of: 1, in: dbPool, pause: pause)
        // A commit while it runs: one more fetch, of `b`, which pauses too.
        pause.pause(atFlag: 2)
        try dbPool.write { try $0.execute(sql: "UPDATE config SET flag = 2") }
        pause.resume()
        XCTAssertEqual(pause.paused.wait(timeout: .now() + 5), .success)
        // A commit to `b` while the fetch of `b` runs: it is seen.
        try assertCommitToBIsSeen(in: dbPool, pause: pause, collector)
        withExtendedLifetime(cancellable) {}
    }
}

extension PoolObservationStartTests {
    func testTheRegionOfAnOlderFetchThatReachesTheWriterLateHidesNoCommit() throws {
        // A fetch's region reaches the writer later than the fetch ends: when the writer
        // is busy, a commit may start a newer fetch first. The older region must hide no
        // commit made while the newer fetch runs, whose region differs.
        let dbPool = try makePool()
        let pause = FetchPause()
        let (collector, cancellable) = try startFlagObservation(in: dbPool, pause: pause)
        // A fetch of `a` runs, and pauses.
        try startPausedFetch(of: 1, in: dbPool, pause: pause)
        // The writer gets busy with a transaction; the fetch of `a` ends meanwhile, and its
        // region waits for the writer.
        let write = beginLongWrite(dbPool, sql: "UPDATE config SET flag = 2")
        pause.resume()
        collector.wait { $0.last == 1000 }
        // The transaction commits: a fetch of `b` starts, and pauses; then the writer gets
        // the region of the fetch of `a`.
        pause.pause(atFlag: 2)
        write.end()
        XCTAssertEqual(write.ended.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(pause.paused.wait(timeout: .now() + 5), .success)
        // A commit to `b` while the fetch of `b` runs: it is seen.
        try assertCommitToBIsSeen(in: dbPool, pause: pause, collector)
        withExtendedLifetime(cancellable) {}
    }
}

/// Observes nothing.
private final class PassiveObserver: TransactionObserver, @unchecked Sendable {  // no state
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: Database) {}
    func databaseDidRollback(_ db: Database) {}
}
