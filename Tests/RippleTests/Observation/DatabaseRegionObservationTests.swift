import Foundation
import XCTest

@testable import Ripple

/// Counts notifications, thread-safely.
final class ChangeCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var _count = 0
    var count: Int { lock.withLock { _count } }
    func increment() { lock.withLock { _count += 1 } }
}

final class DatabaseRegionObservationTests: XCTestCase {
    private func observe(_ dbQueue: some DatabaseWriter, _ observation: DatabaseRegionObservation) throws -> (ChangeCounter, AnyDatabaseCancellable) {
        let counter = ChangeCounter()
        let cancellable = observation.start(in: dbQueue) { error in
            XCTFail("\(error)")
        } onChange: { (db: Database) in
            counter.increment()
        }
        return (counter, cancellable)
    }

    func testSeedSample() throws {
        let dbQueue = try makePlayerDatabase()
        // Tracks the full player table
        let observation = DatabaseRegionObservation(tracking: Player.all())
        let printed = ChangeCounter()
        let cancellable = observation.start(in: dbQueue) { error in
            // Handle error
        } onChange: { (db: Database) in
            XCTAssertFalse(db.isInsideTransaction)
            printed.increment()  // "Players were changed"
        }
        try dbQueue.write { db in
            var player = Player(name: "Arthur")
            try player.insert(db)
        }
        XCTAssertEqual(printed.count, 1)
        cancellable.cancel()
        try dbQueue.write { _ = try Player.deleteAll($0) }
        XCTAssertEqual(printed.count, 1, "no notification after cancel")
    }

    func testOneNotificationPerImpactfulTransaction() throws {
        let dbQueue = try makePlayerDatabase()
        let (counter, cancellable) = try observe(dbQueue, DatabaseRegionObservation(tracking: Player.all()))
        try dbQueue.inTransaction { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('A'), ('B')")
            try db.execute(sql: "UPDATE player SET score = 1")
            return .commit
        }
        XCTAssertEqual(counter.count, 1)
        try dbQueue.inTransaction { db in
            try db.execute(sql: "DELETE FROM player")
            return .rollback
        }
        XCTAssertEqual(counter.count, 1, "rolled back: nothing to notify")
        try dbQueue.write { db in
            try db.execute(sql: "UPDATE player SET score = 2 WHERE id = 999")  // no row changes
        }
        XCTAssertEqual(counter.count, 1, "a statement that changed no row does not notify")
        withExtendedLifetime(cancellable) {}
    }

    /// A statement run in a loop stops looking at the observers of its table once the
    /// transaction touched them all: the next transaction, and an observer added in the
    /// middle of one, must still be told.
    func testAStatementInALoopNotifiesEachTransaction() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE other (x)") }
        let (first, firstCancellable) = try observe(dbQueue, DatabaseRegionObservation(tracking: Player.all()))
        let (second, secondCancellable) = try observe(dbQueue, DatabaseRegionObservation(tracking: Player.all()))
        let (other, otherCancellable) = try observe(dbQueue, DatabaseRegionObservation(tracking: Table("other")))
        let insert = "INSERT INTO player (name) VALUES (?)"
        for transaction in 1...3 {
            try dbQueue.write { db in
                // (The observer of `other` is touched first: the player observers are
                // looked at one by one.)
                try db.execute(sql: "INSERT INTO other VALUES (1)")
                for i in 0..<3 { try db.cachedStatement(sql: insert).execute(arguments: ["\(transaction)-\(i)"]) }
            }
            XCTAssertEqual(first.count, transaction)
            XCTAssertEqual(second.count, transaction)
            XCTAssertEqual(other.count, transaction)
        }
        // An observer that starts between two inserts of one transaction.
        var third: (ChangeCounter, AnyDatabaseCancellable)?
        try dbQueue.writeWithoutTransaction { db in
            try db.inTransaction {
                try db.cachedStatement(sql: insert).execute(arguments: ["a"])
                try db.cachedStatement(sql: insert).execute(arguments: ["b"])
                third = try observe(dbQueue, DatabaseRegionObservation(tracking: Player.all()))
                try db.cachedStatement(sql: insert).execute(arguments: ["c"])
                return .commit
            }
        }
        XCTAssertEqual(first.count, 4)
        XCTAssertEqual(second.count, 4)
        XCTAssertEqual(third?.0.count, 1, "added in the transaction, before its last insert")
        withExtendedLifetime((firstCancellable, secondCancellable, otherCancellable, third)) {}
    }

    /// A statement that no observer cares about, run in a loop, is found inert once: a
    /// trigger created meanwhile, which makes it write an observed table, must be seen.
    func testAnInertStatementThatATriggerMakesWriteAnObservedTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE a (x); CREATE TABLE b (y)")
        }
        let (counter, cancellable) = try observe(dbQueue, DatabaseRegionObservation(tracking: Table("b")))
        let insert = "INSERT INTO a VALUES (?)"
        try dbQueue.writeWithoutTransaction { db in
            try db.inTransaction {
                for i in 0..<3 { try db.cachedStatement(sql: insert).execute(arguments: [i]) }
                try db.execute(sql: "CREATE TRIGGER a_b AFTER INSERT ON a BEGIN INSERT INTO b VALUES (new.x); END")
                try db.cachedStatement(sql: insert).execute(arguments: [3])
                return .commit
            }
        }
        XCTAssertEqual(counter.count, 1, "the trigger wrote b")
        try dbQueue.write { db in
            try db.execute(sql: "DROP TRIGGER a_b")
            for i in 4..<7 { try db.cachedStatement(sql: insert).execute(arguments: [i]) }
        }
        XCTAssertEqual(counter.count, 1, "b did not change")
        // Another connection creates the trigger: the statement is compiled again.
        let path = try makeTemporaryDatabasePath(self)
        // (Other processes' commits are not watched: the count is that of this connection's.)
        var configuration = Configuration()
        configuration.observesExternalChanges = false
        let fileQueue = try DatabaseQueue(path: path, configuration: configuration)
        try fileQueue.write { db in try db.execute(sql: "CREATE TABLE a (x); CREATE TABLE b (y)") }
        let (fileCounter, fileCancellable) = try observe(fileQueue, DatabaseRegionObservation(tracking: Table("b")))
        try fileQueue.write { db in
            for i in 0..<3 { try db.cachedStatement(sql: insert).execute(arguments: [i]) }
        }
        XCTAssertEqual(fileCounter.count, 0)
        let other = try DatabaseQueue(path: path)
        try other.write { db in
            try db.execute(sql: "CREATE TRIGGER a_b AFTER INSERT ON a BEGIN INSERT INTO b VALUES (new.x); END")
        }
        try fileQueue.write { db in
            try db.cachedStatement(sql: insert).execute(arguments: [3])
        }
        XCTAssertEqual(fileCounter.count, 1, "the trigger of another connection wrote b")
        XCTAssertEqual(try fileQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM b") }, 1)
        withExtendedLifetime((cancellable, fileCancellable)) {}
    }

    func testNotCalledForUnrelatedTablesOrColumns() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") }
        // Observe the score column of the 'player' table
        let (scores, c1) = try observe(dbQueue, DatabaseRegionObservation(tracking: Player.select(\.score)))
        let (sqlScores, c2) = try observe(dbQueue, DatabaseRegionObservation(tracking: SQLRequest<Row>("SELECT score FROM player")))
        // Observe both the 'player' and 'team' tables
        let (both, c3) = try observe(dbQueue, DatabaseRegionObservation(tracking: Table("player"), Table("team")))
        // Observe the full database
        let (full, c4) = try observe(dbQueue, DatabaseRegionObservation(tracking: .fullDatabase))
        try dbQueue.write { try $0.execute(sql: "UPDATE player SET name = 'B'") }
        XCTAssertEqual([scores.count, sqlScores.count, both.count, full.count], [0, 0, 1, 1])
        try dbQueue.write { try $0.execute(sql: "UPDATE player SET score = 3") }
        XCTAssertEqual([scores.count, sqlScores.count, both.count, full.count], [1, 1, 2, 2])
        try dbQueue.write { try $0.execute(sql: "INSERT INTO team (id, name) VALUES (1, 'Blue')") }
        XCTAssertEqual([scores.count, sqlScores.count, both.count, full.count], [1, 1, 3, 3])
        withExtendedLifetime([c1, c2, c3, c4]) {}
    }

    func testRowLevelRegions() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'A'), (2, 'B')") }
        let (one, cancellable) = try observe(dbQueue, DatabaseRegionObservation(tracking: Player.filter(key: 1)))
        try dbQueue.write { try $0.execute(sql: "UPDATE player SET score = 5 WHERE id = 2") }
        XCTAssertEqual(one.count, 0, "another row changed")
        try dbQueue.write { try $0.execute(sql: "UPDATE player SET score = 5 WHERE id = 1") }
        XCTAssertEqual(one.count, 1)
        try dbQueue.write { try $0.execute(sql: "UPDATE player SET id = 3 WHERE id = 1") }
        XCTAssertEqual(one.count, 2, "the row moved away from rowid 1")
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'C')") }
        XCTAssertEqual(one.count, 3, "a row moved in at rowid 1")
        withExtendedLifetime(cancellable) {}
    }

    func testForeignKeyCascadesAndTriggers() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO team (id, name) VALUES (1, 'Blue');
                    INSERT INTO player (name, teamId) VALUES ('A', 1);
                    CREATE TABLE log (message TEXT);
                    CREATE TRIGGER logTeam AFTER UPDATE ON team BEGIN INSERT INTO log VALUES (new.name); END;
                    """)
        }
        let (players, c1) = try observe(dbQueue, DatabaseRegionObservation(tracking: Player.all()))
        let (logs, c2) = try observe(dbQueue, DatabaseRegionObservation(tracking: Table("log")))
        try dbQueue.write { try $0.execute(sql: "UPDATE team SET name = 'Red'") }
        XCTAssertEqual([players.count, logs.count], [0, 1])
        try dbQueue.write { try $0.execute(sql: "DELETE FROM team") }
        XCTAssertEqual([players.count, logs.count], [1, 1])
        withExtendedLifetime([c1, c2]) {}
    }

    func testWithoutRowIDTablesAreObserved() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE item (code TEXT PRIMARY KEY, label TEXT) WITHOUT ROWID") }
        let (items, cancellable) = try observe(dbQueue, DatabaseRegionObservation(tracking: Table("item")))
        try dbQueue.write { try $0.execute(sql: "INSERT INTO item VALUES ('a', 'A')") }
        try dbQueue.write { try $0.execute(sql: "UPDATE item SET label = 'B'") }
        try dbQueue.write { try $0.execute(sql: "DELETE FROM item") }
        XCTAssertEqual(items.count, 3)
        withExtendedLifetime(cancellable) {}
    }

    func testRowsDeletedByReplaceAreObserved() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT UNIQUE ON CONFLICT REPLACE);
                    INSERT INTO player VALUES (1, 'Arthur'), (2, 'Barbara');
                    """)
        }
        // Row 1 is deleted by the REPLACE of an insert of row 3: the update hook does not see it.
        let (rowOne, cancellable) = try observe(dbQueue, DatabaseRegionObservation(tracking: Table("player").filter(key: 1)))
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (id, name) VALUES (3, 'Arthur')") }
        XCTAssertEqual(rowOne.count, 1)
        XCTAssertEqual(try dbQueue.read { try Int.fetchAll($0, sql: "SELECT id FROM player ORDER BY id") }, [2, 3])
        withExtendedLifetime(cancellable) {}
    }

    func testDroppedTablesAreObserved() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT);
                    CREATE TABLE other (id INTEGER PRIMARY KEY);
                    INSERT INTO item VALUES (1, 'a'), (2, 'b');
                    """)
        }
        let (items, itemsCancellable) = try observe(dbQueue, DatabaseRegionObservation(tracking: Table("item")))
        let (rowOne, rowCancellable) = try observe(dbQueue, DatabaseRegionObservation(tracking: Table("item").filter(key: 1)))
        let (others, othersCancellable) = try observe(dbQueue, DatabaseRegionObservation(tracking: Table("other")))
        try dbQueue.write { try $0.execute(sql: "DROP TABLE item") }
        XCTAssertEqual(items.count, 1)
        XCTAssertEqual(rowOne.count, 1)
        XCTAssertEqual(others.count, 0)
        withExtendedLifetime((itemsCancellable, rowCancellable, othersCancellable)) {}
    }

    func testSavepointsAreHonored() throws {
        let dbQueue = try makePlayerDatabase()
        let (counter, cancellable) = try observe(dbQueue, DatabaseRegionObservation(tracking: Table("player")))
        try dbQueue.write { db in
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO player (name) VALUES ('A')")
                return .rollback
            }
        }
        XCTAssertEqual(counter.count, 0)
        try dbQueue.write { db in
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO player (name) VALUES ('A')")
                return .commit
            }
        }
        XCTAssertEqual(counter.count, 1)
        withExtendedLifetime(cancellable) {}
    }

    func testOnChangeRunsBeforeAnyOtherWrite() throws {
        let dbQueue = try makePlayerDatabase()
        let observation = DatabaseRegionObservation(tracking: Table("player"))
        let counts = SQLRecorder()
        let cancellable = observation.start(in: dbQueue, onError: { _ in }) { db in
            // The state right after the commit, nobody else wrote meanwhile.
            counts.record(String(try! Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!))
        }
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<10 {
                try! dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('x')") }
            }
        }
        XCTAssertEqual(counts.statements, (1...40).map(String.init))
        withExtendedLifetime(cancellable) {}
    }

    func testNotifyChangesReachesRegionObservations() throws {
        let dbQueue = try makePlayerDatabase()
        let (players, c1) = try observe(dbQueue, DatabaseRegionObservation(tracking: Player.all()))
        let (teams, c2) = try observe(dbQueue, DatabaseRegionObservation(tracking: Table("team")))
        try dbQueue.write { try $0.notifyChanges(in: Table("player")) }
        XCTAssertEqual([players.count, teams.count], [1, 0])
        try dbQueue.write { try $0.notifyChanges(in: .fullDatabase) }
        XCTAssertEqual([players.count, teams.count], [2, 1])
        try dbQueue.writeWithoutTransaction { try $0.notifyChanges(in: Table("team")) }
        XCTAssertEqual([players.count, teams.count], [2, 2])
        withExtendedLifetime([c1, c2]) {}
    }

    func testPoolAndDeallocationCancels() throws {
        let dbPool = try DatabasePool(path: makeTemporaryDatabasePath(self))
        try dbPool.write { try $0.execute(sql: "CREATE TABLE t(a)") }
        var (counter, cancellable): (ChangeCounter, AnyDatabaseCancellable?) = try observe(dbPool, DatabaseRegionObservation(tracking: Table("t")))
        try dbPool.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
        XCTAssertEqual(counter.count, 1)
        _ = cancellable
        cancellable = nil
        try dbPool.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
        XCTAssertEqual(counter.count, 1)
    }

    func testARegionThatCanNotBeComputedIsAnError() throws {
        // As in GRDB: `start` does not throw; the error goes to onError.
        let dbQueue = try DatabaseQueue()
        let errors = SQLRecorder()
        let cancellable = DatabaseRegionObservation(tracking: SQLRequest<Row>("SELECT * FROM missing"))
            .start(in: dbQueue, onError: { errors.record("\($0)") }, onChange: { _ in errors.record("change") })
        XCTAssertEqual(errors.statements.count, 1)
        XCTAssertTrue(errors.statements.first?.contains("no such table: missing") ?? false, "\(errors.statements)")
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE missing (a); INSERT INTO missing VALUES (1)") }
        XCTAssertEqual(errors.statements.count, 1, "not started")
        cancellable.cancel()
    }
}
