import CSQLite
import Foundation
import XCTest

@testable import Ripple

/// Regression tests of the exact-observation issue: each one failed before the fix it
/// names, and each behavior is also covered by the oracle (`OracleTests`).
final class ExactObservationTests: XCTestCase {
    private func makeTeamDatabase(_ writer: some DatabaseWriter) throws {
        try writer.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                    CREATE TABLE award (label TEXT);
                    """)
            try Team(id: 1, name: "Red").insert(db)
        }
    }

    // MARK: - Schema changes after a statement was prepared

    func testStatementsPreparedBeforeATriggerWasCreatedNotifyTheTriggerWrites() throws {
        // The example: a record method's cached statement, prepared before the
        // trigger, writes the award through it.
        let dbQueue = try DatabaseQueue()
        try makeTeamDatabase(dbQueue)
        try dbQueue.write { db in
            try db.execute(
                sql: "CREATE TRIGGER team_award AFTER INSERT ON team BEGIN INSERT INTO award (label) VALUES ('new team ' || NEW.name); END")
        }
        let queue = DispatchQueue(label: "values")
        let collector = ValueCollector<[String]>()
        let cancellable = ValueObservation.tracking { db in try String.fetchAll(db, sql: "SELECT label FROM award") }
            .start(in: dbQueue, scheduling: .async(onQueue: queue), onError: { XCTFail("\($0)") }, onChange: collector.append)
        XCTAssertEqual(collector.wait(for: 1), [[]])
        try dbQueue.write { db in try Team(id: 2, name: "Blue").insert(db) }
        XCTAssertEqual(collector.wait(for: 2), [[], ["new team Blue"]])
        cancellable.cancel()
    }

    func testEveryStatementPathFollowsSchemaChanges() throws {
        let dbQueue = try DatabaseQueue()
        try makeTeamDatabase(dbQueue)
        let observer = RecordingObserver(observing: ["award"])
        dbQueue.add(transactionObserver: observer)
        try dbQueue.writeWithoutTransaction { db in
            let cached = try db.cachedStatement(sql: "INSERT INTO team (name) VALUES (?)")
            let kept = try db.makeStatement(sql: "INSERT INTO team (name) VALUES (?)")
            try cached.execute(arguments: ["before"])
            try kept.execute(arguments: ["before"])
            XCTAssertEqual(observer.take(), ["willCommit", "didCommit", "willCommit", "didCommit"])

            try db.execute(sql: "CREATE TRIGGER team_award AFTER INSERT ON team BEGIN INSERT INTO award (label) VALUES (NEW.name); END")
            _ = observer.take()
            try cached.execute(arguments: ["cached"])
            try kept.execute(arguments: ["kept"])
            try Team(id: 100, name: "record").insert(db)
            XCTAssertEqual(
                observer.take().filter { $0.hasPrefix("didChange") },
                [
                    "didChange insert award 1", "didChange insert award 2", "didChange insert award 3",
                ])

            try db.execute(sql: "DROP TRIGGER team_award")
            try cached.execute(arguments: ["no award"])
            XCTAssertEqual(observer.take().filter { $0.hasPrefix("didChange") }, [])
        }
    }

    func testSchemaChangesByAnotherConnectionAreFollowed() throws {
        let path = try makeTemporaryDatabasePath(self)
        // (The other connection's commit would reach the observation too, as a change to the
        // whole database, when a file event wakes a check: ExternalChangeTests test that.
        // Here, only the statement compiled again counts.)
        var config = Configuration()
        config.observesExternalChanges = false
        let dbPool = try DatabasePool(path: path, configuration: config)
        try makeTeamDatabase(dbPool)
        let region = ValueCollector<Int>()
        let cancellable = DatabaseRegionObservation(tracking: Table<Row>("award"))
            .start(in: dbPool, onError: { XCTFail("\($0)") }, onChange: { _ in region.append(1) })
        let insert = try dbPool.writeWithoutTransaction { db in try db.makeStatement(sql: "INSERT INTO team (name) VALUES ('x')") }
        // Another connection creates the trigger behind Ripple's back.
        var other: OpaquePointer?
        XCTAssertEqual(sqlite3_open(path, &other), SQLITE_OK)
        defer { sqlite3_close(other) }
        XCTAssertEqual(
            sqlite3_exec(other, "CREATE TRIGGER t AFTER INSERT ON team BEGIN INSERT INTO award VALUES ('x'); END", nil, nil, nil), SQLITE_OK)
        try dbPool.writeWithoutTransaction { _ in try insert.execute() }
        XCTAssertEqual(region.values.count, 1)
        cancellable.cancel()
    }

    func testSelectStarReadsTheColumnsOfAnAlteredTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)")
            let statement = try db.cachedStatement(sql: "SELECT * FROM t")
            XCTAssertEqual(try Row.fetchAll(statement).map(\.columnNames), [["a"]])
            try db.execute(sql: "ALTER TABLE t ADD COLUMN b DEFAULT 2")
            let rows = try Row.fetchAll(statement)
            XCTAssertEqual(rows.map(\.columnNames), [["a", "b"]])
            let cursor = try Row.fetchCursor(statement)
            let cursorRow = try cursor.next()
            XCTAssertEqual(cursorRow?.count, 2)
            XCTAssertEqual(cursorRow?["b"] as Int?, 2)
        }
    }

    // MARK: - A database queue: one value per commit

    func testDatabaseQueueValueObservationGetsOneValuePerCommit() throws {
        // Seed 004: "Player has changed" after the update, and again after the delete.
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            var player = Player(id: 42, name: "Arthur", score: 0)
            try player.insert(db)
        }
        let queue = DispatchQueue(label: "values")
        let collector = ValueCollector<Player?>()
        let cancellable = Player.filter(key: 42).observationForFirst()
            .start(in: dbQueue, scheduling: .async(onQueue: queue), onError: { XCTFail("\($0)") }, onChange: collector.append)
        _ = collector.wait(for: 1)
        try dbQueue.inDatabase { db in
            guard var player = try Player.fetchOne(db, sql: "SELECT * FROM player WHERE id = 42") else { return XCTFail() }
            player.score += 100
            try player.update(db)
            try player.delete(db)
        }
        let values = collector.wait(for: 3)
        XCTAssertEqual(values.map { $0?.score }, [0, 100, nil])
        cancellable.cancel()
    }

    // MARK: - Rows deleted by REPLACE

    func testRowsDeletedByReplaceAreDeletionEventsInOrder() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT UNIQUE ON CONFLICT REPLACE);
                    INSERT INTO player (id, name) VALUES (1, 'Arthur'), (2, 'Barbara');
                    """)
        }
        final class DeletionObserver: TransactionObserver {
            var events: [String] = []
            func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
                if case .delete = eventKind { return true }
                return false
            }
            func databaseDidChange(with event: DatabaseEvent) { events.append("\(event.kind) \(event.rowID)") }
            func databaseDidCommit(_ db: Database) {}
            func databaseDidRollback(_ db: Database) {}
        }
        let deletions = DeletionObserver()
        let all = RecordingObserver()
        dbQueue.add(transactionObserver: deletions)
        dbQueue.add(transactionObserver: all)
        try dbQueue.write { db in
            // The ON CONFLICT REPLACE of the table, then INSERT OR REPLACE.
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (3, 'Arthur')")
            try db.execute(sql: "INSERT OR REPLACE INTO player (id, name) VALUES (2, 'Craig')")
        }
        XCTAssertEqual(deletions.events, ["delete 1", "delete 2"])
        XCTAssertEqual(
            all.take(),
            [
                "didChange delete player 1", "didChange insert player 3",
                "didChange delete player 2", "didChange insert player 2",
                "willCommit", "didCommit",
            ])
    }

    func testChangesOfWithoutRowIDTablesAreEvents() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE item (code TEXT PRIMARY KEY, label TEXT) WITHOUT ROWID") }
        let observer = RecordingObserver()
        observer.recordsPreUpdates = true
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO item VALUES ('a', 'A')")
            try db.execute(sql: "UPDATE item SET label = 'B'")
            try db.execute(sql: "DELETE FROM item")
        }
        XCTAssertEqual(
            observer.take(),
            [
                "didChange insert item 0", "didChange update item 0", "didChange delete item 0",
                "willCommit", "didCommit",
            ])
        // The pre-update events tell the primary key.
        XCTAssertEqual(observer.preUpdateEvents.first?.finalDatabaseValues?.first, "a".databaseValue)
    }

    func testAnUpdateThatChangesARowIDIsADeletionAndAnInsertion() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')") }
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        let region = ValueCollector<Int>()
        let cancellable = DatabaseRegionObservation(tracking: Player.filter(key: 1))
            .start(in: dbQueue, onError: { XCTFail("\($0)") }, onChange: { _ in region.append(1) })
        try dbQueue.write { db in try db.execute(sql: "UPDATE player SET id = 5 WHERE id = 1") }
        XCTAssertEqual(observer.take(), ["didChange delete player 1", "didChange insert player 5", "willCommit", "didCommit"])
        XCTAssertEqual(region.values.count, 1)
        cancellable.cancel()
    }

    // MARK: - Statements that report success

    func testDropTableDropsVirtualTables() throws {
        let dbQueue = try DatabaseQueue()
        for module in ["fts5", "fts4", "fts3"] {
            try dbQueue.write { db in
                try db.execute(sql: "CREATE VIRTUAL TABLE t USING \(module)(body); INSERT INTO t VALUES ('hello')")
                try db.execute(sql: "DROP TABLE t")
                let remaining = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name LIKE 't%'")
                XCTAssertEqual(remaining, [], module)
            }
        }
    }

    func testDeleteWithoutWhereNotifiesEveryRow() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('a'), ('b')") }
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in try db.execute(sql: "DELETE FROM player") }
        XCTAssertEqual(observer.take(), ["didChange delete player 1", "didChange delete player 2", "willCommit", "didCommit"])
    }

    // MARK: - Table names as the schema spells them

    func testObserversAreAskedWithTheTableNameOfTheSchema() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE pLaYeR (id INTEGER PRIMARY KEY, sCoRe INT)") }
        final class KindRecorder: TransactionObserver {
            var kinds: [DatabaseEventKind] = []
            var events: [String] = []
            func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
                kinds.append(eventKind)
                return eventKind.tableName == "pLaYeR"
            }
            func databaseDidChange(with event: DatabaseEvent) { events.append("\(event.kind) \(event.tableName)") }
            func databaseDidCommit(_ db: Database) {}
            func databaseDidRollback(_ db: Database) {}
        }
        let observer = KindRecorder()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO PLAYER (SCORE) VALUES (1)")
            try db.execute(sql: "UPDATE player SET score = 2")
            try db.execute(sql: "DELETE FROM Player")
        }
        XCTAssertEqual(
            observer.kinds,
            [
                .insert(tableName: "pLaYeR"),
                .update(tableName: "pLaYeR", columnNames: ["sCoRe"]),
                .delete(tableName: "pLaYeR"),
            ])
        XCTAssertEqual(observer.events, ["insert pLaYeR", "update pLaYeR", "delete pLaYeR"])
    }

    // MARK: - Notified of what did not happen

    func testARolledBackSavepointTellsNoPreUpdateEvent() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        observer.recordsPreUpdates = true
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO player (name) VALUES ('gone')")
                return .rollback
            }
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO player (name) VALUES ('kept')")
                XCTAssertEqual(observer.preUpdateEvents.count, 0, "told while the savepoint is open")
                return .commit
            }
        }
        XCTAssertEqual(observer.preUpdateEvents.map(\.finalRowID), [1])
        XCTAssertEqual(observer.take(), ["didChange insert player 1", "willCommit", "didCommit"])
    }

    func testAFailedStatementInATransactionTellsNothing() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'a')")
            // The second row fails: SQLite undoes the first one.
            XCTAssertThrowsError(try db.execute(sql: "INSERT INTO player (id, name) VALUES (2, 'b'), (1, 'c')"))
        }
        XCTAssertEqual(observer.take(), ["didChange insert player 1", "willCommit", "didCommit"])
        XCTAssertEqual(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }, 1)
    }

    func testAStatementWithFailConflictResolutionTellsWhatItKept() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'a')")
            // FAIL keeps the rows inserted before the error.
            XCTAssertThrowsError(try db.execute(sql: "INSERT OR FAIL INTO player (id, name) VALUES (2, 'b'), (1, 'c')"))
        }
        XCTAssertEqual(observer.take(), ["didChange insert player 1", "didChange insert player 2", "willCommit", "didCommit"])
    }

    func testAFailedStatementOutsideOfATransactionEndsNothing() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.writeWithoutTransaction { db in
            XCTAssertThrowsError(try db.execute(sql: "INSERT INTO player (name) VALUES (NULL)"))
        }
        XCTAssertEqual(observer.take(), [])
    }

    func testNotifyChangesSkipsObserversThatRefuseTheRegion() throws {
        let dbQueue = try makePlayerDatabase()
        let players = RecordingObserver(observing: ["player"])
        let teams = RecordingObserver(observing: ["team"])
        dbQueue.add(transactionObserver: players)
        dbQueue.add(transactionObserver: teams)
        try dbQueue.write { db in
            try db.notifyChanges(in: Table<Row>("PLAYER"))
            // A table that does not exist is no change.
            try db.notifyChanges(in: Table<Row>("nothing"))
        }
        XCTAssertEqual(players.take(), ["didChange()", "willCommit", "didCommit"])
        XCTAssertEqual(teams.take(), ["willCommit", "didCommit"])
    }

    func testNotifyChangesDoesNothingInAReadOnlyAccess() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.read { db in try db.notifyChanges(in: .fullDatabase) }
        XCTAssertEqual(observer.take(), [])
    }

    func testARegionObservationIsNotNotifiedOfAStatementThatChangedNothing() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE log (message TEXT);
                    CREATE TRIGGER t AFTER INSERT ON team WHEN NEW.name = 'logged' BEGIN INSERT INTO log VALUES (NEW.name); END;
                    """)
        }
        let region = ValueCollector<Int>()
        let cancellable = DatabaseRegionObservation(tracking: Table<Row>("log"))
            .start(in: dbQueue, onError: { XCTFail("\($0)") }, onChange: { _ in region.append(1) })
        // The trigger does not fire: the log is not touched.
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO team (name) VALUES ('quiet')") }
        XCTAssertEqual(region.values.count, 0)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO team (name) VALUES ('logged')") }
        XCTAssertEqual(region.values.count, 1)
        cancellable.cancel()
    }

    func testForeignKeyActionsNotifyTheColumnsTheyChange() throws {
        // ON DELETE SET NULL and ON UPDATE CASCADE change the child's foreign key columns
        // only: an observation of other columns of the child is not notified.
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE parent (id INTEGER PRIMARY KEY);
                    CREATE TABLE child (id INTEGER PRIMARY KEY, a INTEGER, p INTEGER REFERENCES parent(id) ON DELETE SET NULL ON UPDATE CASCADE);
                    INSERT INTO parent VALUES (1), (2);
                    INSERT INTO child VALUES (1, 10, 1), (2, 20, 2);
                    """)
        }
        let aChanges = ValueCollector<Int>()
        let pChanges = ValueCollector<Int>()
        let observer = RecordingObserver(observing: ["child"])
        dbQueue.add(transactionObserver: observer)
        let aObservation = DatabaseRegionObservation(tracking: SQLRequest<Row>(sql: "SELECT a FROM child"))
            .start(in: dbQueue, onError: { XCTFail("\($0)") }, onChange: { _ in aChanges.append(1) })
        let pObservation = DatabaseRegionObservation(tracking: SQLRequest<Row>(sql: "SELECT p FROM child"))
            .start(in: dbQueue, onError: { XCTFail("\($0)") }, onChange: { _ in pChanges.append(1) })
        try dbQueue.write { db in try db.execute(sql: "DELETE FROM parent WHERE id = 1") }
        try dbQueue.write { db in try db.execute(sql: "UPDATE parent SET id = 3 WHERE id = 2") }
        XCTAssertEqual(aChanges.values.count, 0)
        XCTAssertEqual(pChanges.values.count, 2)
        XCTAssertEqual(observer.take().filter { $0.hasPrefix("didChange") }, ["didChange update child 1", "didChange update child 2"])
        aObservation.cancel()
        pObservation.cancel()
    }
}

extension ExactObservationTests {
    func testAnObserverKeepsItsEventsWhenAnotherOneStopsForTheTransaction() throws {
        // The second execution of a statement has fewer active observers than the first:
        // the remaining one still hears of every row.
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") }
        let first = RecordingObserver()
        let second = RecordingObserver()
        second.stopsAfterFirstChange = true
        dbQueue.add(transactionObserver: first)
        dbQueue.add(transactionObserver: second)
        try dbQueue.write { db in
            let statement = try db.makeStatement(sql: "INSERT INTO t (id) VALUES (?)")
            for id in 1...3 { try statement.execute(arguments: [id]) }
        }
        XCTAssertEqual(first.take().filter { $0.hasPrefix("didChange") }, ["didChange insert t 1", "didChange insert t 2", "didChange insert t 3"])
        XCTAssertEqual(second.take().filter { $0.hasPrefix("didChange") }, ["didChange insert t 1"])
    }
}
