import Foundation
import XCTest

@testable import Ripple

/// An observer that runs a closure from one of its callbacks.
private final class ActingObserver: TransactionObserver, @unchecked Sendable {  // used on the writer's queue only
    var log: [String] = []
    var onDidChange: ((ActingObserver) -> Void)?
    var onWillCommit: ((ActingObserver) -> Void)?
    var onDidCommit: ((ActingObserver, Database) -> Void)?
    var onDidRollback: ((ActingObserver, Database) -> Void)?
    let name: String
    init(_ name: String) { self.name = name }
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
    func databaseDidChange(with event: DatabaseEvent) {
        log.append("\(name) didChange \(event.rowID)")
        onDidChange?(self)
    }
    func databaseWillCommit() throws {
        log.append("\(name) willCommit")
        onWillCommit?(self)
    }
    func databaseDidCommit(_ db: Database) {
        log.append("\(name) didCommit")
        onDidCommit?(self, db)
    }
    func databaseDidRollback(_ db: Database) {
        log.append("\(name) didRollback")
        onDidRollback?(self, db)
    }
}

/// Observers added and removed from inside callbacks: the broker's lists never change
/// under its own loops, and the effect is defined (see `DatabaseWriter.remove(transactionObserver:)`).
final class CallbackReentrancyTests: XCTestCase {
    private func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, v)") }
        return dbQueue
    }

    func testAnObserverRemovedFromDatabaseDidChangeGetsNothingMore() throws {
        let dbQueue = try makeQueue()
        let first = ActingObserver("first")
        let second = ActingObserver("second")
        first.onDidChange = { observer in dbQueue.remove(transactionObserver: observer) }
        second.onDidChange = { observer in dbQueue.remove(transactionObserver: observer) }
        dbQueue.add(transactionObserver: first)
        dbQueue.add(transactionObserver: second)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO t (id) VALUES (1), (2)")
            try db.execute(sql: "INSERT INTO t (id) VALUES (3)")
        }
        XCTAssertEqual(first.log, ["first didChange 1"])
        XCTAssertEqual(second.log, ["second didChange 1"])
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO t (id) VALUES (4)") }
        XCTAssertEqual(first.log, ["first didChange 1"])
    }

    func testASoleObserverRemovedFromDatabaseDidChangeGetsNothingMore() throws {
        // The only active observer is told through the reference the broker holds since
        // the statement started: its removal still stops the events at once.
        let dbQueue = try makeQueue()
        let observer = ActingObserver("only")
        observer.onDidChange = { observer in dbQueue.remove(transactionObserver: observer) }
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO t (id) VALUES (1), (2), (3)") }
        XCTAssertEqual(observer.log, ["only didChange 1"])
    }

    func testAnObserverReleasedDuringAStatementItObservesHearsTheStatementToItsEnd() throws {
        // Observers are held weakly, except while a statement they observe runs: the broker
        // keeps them from the questions before the statement to the end of its events.
        final class Holder: @unchecked Sendable {  // used on the writer's queue only
            var observer: ActingObserver?
            var firstLog: [String] = []
        }
        let dbQueue = try makeQueue()
        let holder = Holder()
        weak var weakFirst: ActingObserver?
        do {
            let first = ActingObserver("first")
            first.onDidChange = { observer in holder.firstLog = observer.log }
            weakFirst = first
            holder.observer = first
            dbQueue.add(transactionObserver: first)
        }
        let second = ActingObserver("second")
        // The second observer lets the first one go at the first event.
        second.onDidChange = { _ in holder.observer = nil }
        dbQueue.add(transactionObserver: second)
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO t (id) VALUES (1), (2)")
        }
        // Released when the statement's events were told, before its commit.
        XCTAssertEqual(holder.firstLog, ["first didChange 1", "first didChange 2"])
        XCTAssertNil(weakFirst)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO t (id) VALUES (3)") }
        XCTAssertEqual(second.log.filter { $0.contains("didChange") }, ["second didChange 1", "second didChange 2", "second didChange 3"])
    }

    func testAnObserverRemovingAnotherOneFromDatabaseDidChange() throws {
        let dbQueue = try makeQueue()
        let first = ActingObserver("first")
        let second = ActingObserver("second")
        first.onDidChange = { _ in dbQueue.remove(transactionObserver: second) }
        dbQueue.add(transactionObserver: first)
        dbQueue.add(transactionObserver: second)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO t (id) VALUES (1), (2)") }
        XCTAssertEqual(first.log, ["first didChange 1", "first didChange 2", "first willCommit", "first didCommit"])
        XCTAssertEqual(second.log, [])
    }

    func testObserversRemovedFromCommitCallbacks() throws {
        let dbQueue = try makeQueue()
        let observers = (0..<4).map { ActingObserver("o\($0)") }
        // o0 removes itself in willCommit, o1 in didCommit, o2 removes o3 in didCommit.
        observers[0].onWillCommit = { dbQueue.remove(transactionObserver: $0) }
        observers[1].onDidCommit = { observer, db in db.remove(transactionObserver: observer) }
        observers[2].onDidCommit = { _, db in db.remove(transactionObserver: observers[3]) }
        for observer in observers { dbQueue.add(transactionObserver: observer) }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO t (id) VALUES (1)") }
        XCTAssertEqual(observers[0].log, ["o0 didChange 1", "o0 willCommit"])
        XCTAssertEqual(observers[1].log, ["o1 didChange 1", "o1 willCommit", "o1 didCommit"])
        XCTAssertEqual(observers[2].log, ["o2 didChange 1", "o2 willCommit", "o2 didCommit"])
        // o3 was removed by o2 before its turn in the same round of didCommit.
        XCTAssertEqual(observers[3].log, ["o3 didChange 1", "o3 willCommit"])
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO t (id) VALUES (2)") }
        XCTAssertEqual(observers[2].log.suffix(3), ["o2 didChange 2", "o2 willCommit", "o2 didCommit"])
        XCTAssertEqual(observers[0].log.count + observers[1].log.count + observers[3].log.count, 7)
    }

    func testObserversAddedFromCallbacksStartWithTheNextStatement() throws {
        let dbQueue = try makeQueue()
        let first = ActingObserver("first")
        let late = ActingObserver("late")
        let lateFromRollback = ActingObserver("lateR")
        var added = false
        first.onDidChange = { _ in
            if !added {
                added = true
                dbQueue.add(transactionObserver: late)
            }
        }
        first.onDidRollback = { _, db in db.add(transactionObserver: lateFromRollback) }
        dbQueue.add(transactionObserver: first)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO t (id) VALUES (1), (2)")
            try db.execute(sql: "INSERT INTO t (id) VALUES (3)")
        }
        XCTAssertEqual(late.log, ["late didChange 3", "late willCommit", "late didCommit"])
        try? dbQueue.write { db in
            try db.execute(sql: "INSERT INTO t (id) VALUES (4)")
            throw CancellationError()
        }
        XCTAssertEqual(lateFromRollback.log, [])
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO t (id) VALUES (5)") }
        XCTAssertEqual(lateFromRollback.log, ["lateR didChange 5", "lateR willCommit", "lateR didCommit"])
    }

    func testObserversRemovedAndAddedWhileTheyAreAskedAboutAStatement() throws {
        // The observers are asked about each statement in registration order; one of them
        // removes an observer asked before it, and adds another, while it is asked. The
        // ones after it are still asked (none is skipped), the removed one hears nothing
        // more, and the added one starts with the next statement.
        final class AskingObserver: TransactionObserver, @unchecked Sendable {  // used on the writer's queue only
            var log: [String] = []
            var onAsked: (() -> Void)?
            let name: String
            init(_ name: String) { self.name = name }
            func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
                if let onAsked {
                    self.onAsked = nil
                    onAsked()
                }
                return true
            }
            func databaseDidChange(with event: DatabaseEvent) { log.append("\(name) \(event.rowID)") }
            func databaseDidCommit(_ db: Database) {}
            func databaseDidRollback(_ db: Database) {}
        }
        let dbQueue = try makeQueue()
        let removed = AskingObserver("removed")
        let asker = AskingObserver("asker")
        let third = AskingObserver("third")
        let fourth = AskingObserver("fourth")
        let late = AskingObserver("late")
        for observer in [removed, asker, third, fourth] { dbQueue.add(transactionObserver: observer) }
        try dbQueue.write { db in
            // Same statement twice: the second execution would reuse the first one's.
            try db.execute(sql: "INSERT INTO t (id) VALUES (1)")
            asker.onAsked = {
                dbQueue.remove(transactionObserver: removed)
                dbQueue.add(transactionObserver: late)
            }
            try db.execute(sql: "INSERT INTO t (id) VALUES (2)")
            try db.execute(sql: "INSERT INTO t (id) VALUES (3)")
        }
        XCTAssertEqual(asker.log, ["asker 1", "asker 2", "asker 3"])
        XCTAssertEqual(removed.log, ["removed 1"])
        XCTAssertEqual(third.log, ["third 1", "third 2", "third 3"])
        XCTAssertEqual(fourth.log, ["fourth 1", "fourth 2", "fourth 3"])
        XCTAssertEqual(late.log, ["late 3"])
    }

    func testRegionObservationCancelledFromItsOwnHandler() throws {
        let dbQueue = try makeQueue()
        let count = LockedCounter()
        let holder = CancellableHolder()
        let other = LockedCounter()
        let observation = DatabaseRegionObservation(tracking: Table("t"))
        holder.cancellable = observation.start(in: dbQueue, onError: { _ in }) { _ in
            count.increment()
            holder.cancellable?.cancel()
        }
        let otherCancellable = observation.start(in: dbQueue, onError: { _ in }) { _ in other.increment() }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO t (id) VALUES (1)") }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO t (id) VALUES (2)") }
        XCTAssertEqual(count.value, 1)
        XCTAssertEqual(other.value, 2)
        otherCancellable.cancel()
    }
}

final class LockedCounter: @unchecked Sendable {  // every access goes through `lock`
    private let lock = NSLock()
    private var _value = 0
    var value: Int { lock.withLock { _value } }
    func increment() { lock.withLock { _value += 1 } }
}

final class CancellableHolder: @unchecked Sendable {  // set before any callback can read it, on the test's thread
    var cancellable: (any DatabaseCancellable)?
}
