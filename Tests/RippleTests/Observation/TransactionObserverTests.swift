import XCTest

@testable import Ripple

/// Records the callbacks it receives.
final class RecordingObserver: TransactionObserver, @unchecked Sendable {
    var log: [String] = []
    var observedTables: Set<String>?
    var willCommitError: (any Error)?
    var recordsPreUpdates = false
    var preUpdateEvents: [DatabasePreUpdateEvent] = []
    var events: [DatabaseEvent] = []
    var onDidCommit: ((Database) throws -> Void)?
    var stopsAfterFirstChange = false

    init(observing tables: Set<String>? = nil) {
        observedTables = tables
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        observedTables.map { $0.contains(eventKind.tableName) } ?? true
    }

    func databaseDidChange(with event: DatabaseEvent) {
        log.append("didChange \(event.kind) \(event.tableName) \(event.rowID)")
        events.append(event.copy())
        if stopsAfterFirstChange { stopObservingDatabaseChangesUntilNextTransaction() }
    }

    func databaseDidChange() {
        log.append("didChange()")
    }

    func databaseWillCommit() throws {
        log.append("willCommit")
        if let willCommitError { throw willCommitError }
    }

    func databaseDidCommit(_ db: Database) {
        log.append("didCommit")
        try! onDidCommit?(db)
    }

    func databaseDidRollback(_ db: Database) {
        log.append("didRollback")
    }

    func databaseWillChange(with event: DatabasePreUpdateEvent) {
        guard recordsPreUpdates else { return }
        preUpdateEvents.append(event.copy())
    }

    func take() -> [String] {
        defer { log.removeAll() }
        return log
    }
}

struct VetoError: Error, Equatable {}

final class TransactionObserverTests: XCTestCase {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INT DEFAULT 0, teamId INTEGER REFERENCES team(id) ON DELETE CASCADE);
                    CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT);
                    INSERT INTO team (id, name) VALUES (1, 'Blue');
                    """)
        }
        return dbQueue
    }

    // MARK: - Database Changes And Transactions

    func testWriteNotifiesChangesThenCommit() throws {
        let dbQueue = try makeDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")  // 1. didChange
            try db.execute(sql: "UPDATE player SET score = 1")  // 2. didChange
        }  // 3. willCommit, 4. didCommit
        XCTAssertEqual(observer.take(), ["didChange insert player 1", "didChange update player 1", "willCommit", "didCommit"])
    }

    func testRollbackNotifiesChangesThenRollback() throws {
        let dbQueue = try makeDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.inTransaction { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")  // 1. didChange
            try db.execute(sql: "UPDATE player SET score = 1")  // 2. didChange
            return .rollback  // 3. didRollback
        }
        XCTAssertEqual(observer.take(), ["didChange insert player 1", "didChange update player 1", "didRollback"])
    }

    func testErrorRollsBack() throws {
        struct SomeError: Error {}
        let dbQueue = try makeDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        XCTAssertThrowsError(
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")  // 1. didChange
                throw SomeError()
            })  // 2. didRollback
        XCTAssertEqual(observer.take(), ["didChange insert player 1", "didRollback"])
    }

    func testStatementsOutsideTransactionCommitOneByOne() throws {
        let dbQueue = try makeDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")  // 1. didChange, 2. willCommit, 3. didCommit
            try db.execute(sql: "UPDATE player SET score = 1")  // 4. didChange, 5. willCommit, 6. didCommit
        }
        XCTAssertEqual(
            observer.take(),
            [
                "didChange insert player 1", "willCommit", "didCommit",
                "didChange update player 1", "willCommit", "didCommit",
            ])
    }

    func testSavepointsHoldChangesUntilReleased() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')") }
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.inTransaction { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (2, 'Barbara')")  // 1. didChange
            XCTAssertEqual(observer.log, ["didChange insert player 2"])

            try db.execute(sql: "SAVEPOINT foo")
            try db.execute(sql: "UPDATE player SET score = 1 WHERE id = 1")  // delayed
            try db.execute(sql: "UPDATE player SET score = 2 WHERE id = 2")  // delayed
            XCTAssertEqual(observer.log.count, 1)
            try db.execute(sql: "RELEASE SAVEPOINT foo")  // 2. didChange, 3. didChange
            XCTAssertEqual(observer.log.count, 3)

            try db.execute(sql: "SAVEPOINT bar")
            try db.execute(sql: "UPDATE player SET score = 3")  // not notified
            try db.execute(sql: "ROLLBACK TO SAVEPOINT bar")
            try db.execute(sql: "RELEASE SAVEPOINT bar")

            return .commit  // 4. willCommit, 5. didCommit
        }
        XCTAssertEqual(
            observer.take(),
            [
                "didChange insert player 2",
                "didChange update player 1", "didChange update player 2",
                "willCommit", "didCommit",
            ])
    }

    func testNestedSavepointsAndInSavepoint() throws {
        let dbQueue = try makeDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.writeWithoutTransaction { db in
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'A')")
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO player (id, name) VALUES (2, 'B')")
                    return .rollback
                }
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO player (id, name) VALUES (3, 'C')")
                    return .commit
                }
                return .commit
            }
        }
        XCTAssertEqual(observer.take(), ["didChange insert player 1", "didChange insert player 3", "willCommit", "didCommit"])
    }

    func testSavepointOutsideTransactionIsBufferedUntilReleased() throws {
        let dbQueue = try makeDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "SAVEPOINT outer")
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'A')")
            XCTAssertEqual(observer.log, [])
            try db.execute(sql: "RELEASE SAVEPOINT outer")
        }
        XCTAssertEqual(observer.take(), ["didChange insert player 1", "willCommit", "didCommit"])
    }

    func testWillCommitErrorRollsBackAndReachesTheApplication() throws {
        let dbQueue = try makeDatabase()
        let observer = RecordingObserver()
        observer.willCommitError = VetoError()
        dbQueue.add(transactionObserver: observer)
        do {
            try dbQueue.inTransaction { db in
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
                return .commit  // 1. willCommit (throws), 2. didRollback
            }
            XCTFail("expected the observer's error")
        } catch {
            // 3. The error thrown by the transaction observer.
            XCTAssertEqual(error as? VetoError, VetoError())
        }
        XCTAssertEqual(observer.take(), ["didChange insert player 1", "willCommit", "didRollback"])
        observer.willCommitError = nil
        XCTAssertEqual(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") }, 0)
        // The connection is fine afterwards.
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')") }
        XCTAssertEqual(observer.take(), ["didChange insert player 1", "willCommit", "didCommit"])
    }

    func testWillCommitErrorOnAutocommitStatement() throws {
        let dbQueue = try makeDatabase()
        let observer = RecordingObserver()
        observer.willCommitError = VetoError()
        dbQueue.add(transactionObserver: observer)
        XCTAssertThrowsError(try dbQueue.writeWithoutTransaction { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") }) {
            XCTAssertEqual($0 as? VetoError, VetoError())
        }
        XCTAssertEqual(observer.take(), ["didChange insert player 1", "willCommit", "didRollback"])
    }

    // MARK: - Filtering

    func testObserverChoosesItsTables() throws {
        let dbQueue = try makeDatabase()
        let observer = RecordingObserver(observing: ["player"])
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO team (id, name) VALUES (2, 'Red')")
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
        }
        XCTAssertEqual(observer.take(), ["didChange insert player 1", "willCommit", "didCommit"])
        // Not observing anything: still notified of transactions.
        let teams = RecordingObserver(observing: [])
        dbQueue.add(transactionObserver: teams)
        try dbQueue.write { try $0.execute(sql: "UPDATE player SET score = 2") }
        XCTAssertEqual(teams.take(), ["willCommit", "didCommit"])
    }

    func testAnswersMayChangeFromOneExecutionToTheNext() throws {
        // The broker remembers which table names it accepted for a statement; it must
        // forget them when the observer answers differently for the next execution.
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE log (text TEXT)")
            try db.execute(sql: "CREATE TRIGGER logPlayer AFTER INSERT ON player BEGIN INSERT INTO log VALUES (NEW.name); END")
        }
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            let insert = try db.cachedStatement(sql: "INSERT INTO player (name) VALUES (?)")
            try insert.execute(arguments: ["A"])
            observer.observedTables = ["log"]
            try insert.execute(arguments: ["B"])
            observer.observedTables = ["player"]
            try insert.execute(arguments: ["C"])
            observer.observedTables = nil
            try insert.execute(arguments: ["D"])
        }
        XCTAssertEqual(
            observer.take(),
            [
                "didChange insert player 1", "didChange insert log 1",
                "didChange insert log 2",
                "didChange insert player 3",
                "didChange insert player 4", "didChange insert log 4",
                "willCommit", "didCommit",
            ])
    }

    func testTableNamesAfterTheSchemaChanges() throws {
        // Row events carry SQLite's table names; a schema change frees them.
        let dbQueue = try makeDatabase()
        let observer = RecordingObserver(observing: ["item"])
        dbQueue.add(transactionObserver: observer)
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY)")
            let insert = try db.cachedStatement(sql: "INSERT INTO item DEFAULT VALUES")
            try insert.execute()
            try db.execute(sql: "DROP TABLE item; CREATE TABLE other (id INTEGER PRIMARY KEY); CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT)")
            try insert.execute()
            try db.inTransaction {
                try db.execute(sql: "ALTER TABLE item ADD COLUMN score")
                try insert.execute()
                try db.execute(sql: "INSERT INTO other DEFAULT VALUES")
                return .commit
            }
        }
        XCTAssertEqual(
            observer.take().filter { $0.hasPrefix("didChange") },
            [
                "didChange insert item 1", "didChange insert item 1", "didChange insert item 2",
            ])
    }

    func testObservesIsAskedOncePerExecutionWithTheColumns() throws {
        final class KindRecorder: TransactionObserver {
            var kinds: [DatabaseEventKind] = []
            func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
                kinds.append(eventKind)
                return false
            }
            func databaseDidChange(with event: DatabaseEvent) { XCTFail("not asked for") }
            func databaseDidCommit(_ db: Database) {}
            func databaseDidRollback(_ db: Database) {}
        }
        let dbQueue = try makeDatabase()
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A'), ('B')") }
        let observer = KindRecorder()
        dbQueue.add(transactionObserver: observer)
        // Calls `observes(eventsOfKind:)` once; `databaseDidChange(with:)` for every row, or not at all.
        try dbQueue.write { try $0.execute(sql: "UPDATE player SET score = score + 1") }
        XCTAssertEqual(observer.kinds, [.update(tableName: "player", columnNames: ["score"])])
    }

    // MARK: - Extents

    func testObserverLifetimeExtentIsWeak() throws {
        let dbQueue = try makeDatabase()
        var observer: RecordingObserver? = RecordingObserver()
        weak let weakObserver = observer
        dbQueue.add(transactionObserver: observer!)
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") }
        XCTAssertEqual(observer?.log.count, 3)
        observer = nil
        XCTAssertNil(weakObserver)
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('B')") }
    }

    func testObserverReleasedInsideATransactionGetsNothingMore() throws {
        // An observer held weakly that the application lets go of in the middle of a
        // transaction gets nothing more: no row events, no willCommit or didCommit, no
        // events a savepoint held.
        final class Counter: TransactionObserver {
            nonisolated(unsafe) static var deinits = 0
            nonisolated(unsafe) static var willCommits = 0
            var changes = 0
            var commits = 0
            func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
            func databaseDidChange(with event: DatabaseEvent) { changes += 1 }
            func databaseWillCommit() throws { Counter.willCommits += 1 }
            func databaseDidCommit(_ db: Database) { commits += 1 }
            func databaseDidRollback(_ db: Database) {}
            deinit { Counter.deinits += 1 }
        }
        let dbQueue = try makeDatabase()
        var kept: Counter? = Counter()
        var dropped: Counter? = Counter()
        weak let weakDropped = dropped
        dbQueue.add(transactionObserver: kept!)
        dbQueue.add(transactionObserver: dropped!)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('A')")
            XCTAssertEqual(dropped?.changes, 1)
            dropped = nil
            try db.execute(sql: "INSERT INTO player (name) VALUES ('B')")
            XCTAssertNil(weakDropped)
            try db.execute(sql: "INSERT INTO player (name) VALUES ('C')")
        }
        XCTAssertEqual(Counter.deinits, 1)
        XCTAssertEqual(kept?.changes, 3)
        XCTAssertEqual(kept?.commits, 1)
        // Let go after the last statement of a transaction: gone before its commit is told.
        var late: Counter? = Counter()
        weak let weakLate = late
        dbQueue.add(transactionObserver: late!)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('D')")
            late = nil
        }
        XCTAssertNil(weakLate)
        XCTAssertEqual(Counter.deinits, 2)
        XCTAssertEqual(Counter.willCommits, 2, "kept: 2 commits; late: not asked after it was let go")
        XCTAssertEqual(kept?.changes, 4)
        // Let go inside a savepoint: the events the savepoint held are not delivered to it.
        var saved: Counter? = Counter()
        weak let weakSaved = saved
        dbQueue.add(transactionObserver: saved!)
        try dbQueue.write { db in
            try db.execute(sql: "SAVEPOINT s")
            try db.execute(sql: "INSERT INTO player (name) VALUES ('E')")
            XCTAssertEqual(saved?.changes, 0, "held by the savepoint")
            saved = nil
            try db.execute(sql: "RELEASE SAVEPOINT s")
            XCTAssertNil(weakSaved)
        }
        XCTAssertEqual(Counter.deinits, 3)
        XCTAssertEqual(kept?.changes, 5)
        kept = nil
    }

    func testNextTransactionExtent() throws {
        let dbQueue = try makeDatabase()
        var observer: RecordingObserver? = RecordingObserver()
        weak let weakObserver = observer
        dbQueue.add(transactionObserver: observer!, extent: .nextTransaction)
        let log = observer!
        observer = nil
        XCTAssertNotNil(weakObserver, "retained until the next transaction completes")
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") }
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('B')") }
        XCTAssertEqual(log.take(), ["didChange insert player 1", "willCommit", "didCommit"])
    }

    func testDatabaseLifetimeExtentRetains() throws {
        let dbQueue = try makeDatabase()
        var observer: RecordingObserver? = RecordingObserver()
        weak let weakObserver = observer
        dbQueue.add(transactionObserver: observer!, extent: .databaseLifetime)
        observer = nil
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") }
        XCTAssertEqual(weakObserver?.take(), ["didChange insert player 1", "willCommit", "didCommit"])
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('B')") }
        XCTAssertEqual(weakObserver?.take().count, 3)
        dbQueue.remove(transactionObserver: weakObserver!)
        XCTAssertNil(weakObserver, "released by remove")
    }

    func testRemoveFromDatabase() throws {
        let dbQueue = try makeDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        dbQueue.inDatabase { db in db.remove(transactionObserver: observer) }
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") }
        XCTAssertEqual(observer.log, [])
    }

    func testStopObservingUntilNextTransaction() throws {
        let dbQueue = try makeDatabase()
        let observer = RecordingObserver()
        observer.stopsAfterFirstChange = true
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('A'), ('B')")
            try db.execute(sql: "INSERT INTO player (name) VALUES ('C')")
        }
        XCTAssertEqual(observer.take(), ["didChange insert player 1", "willCommit", "didCommit"])
        try dbQueue.write { try $0.execute(sql: "DELETE FROM player WHERE id = 3") }
        XCTAssertEqual(observer.take(), ["didChange delete player 3", "willCommit", "didCommit"])
    }

    // MARK: - Indirect changes

    func testForeignKeyCascadesAndTriggersAreNotified() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO player (id, name, teamId) VALUES (1, 'A', 1), (2, 'B', 1);
                    CREATE TABLE log (message TEXT);
                    CREATE TRIGGER logTeam AFTER INSERT ON team BEGIN INSERT INTO log VALUES (new.name); END;
                    """)
        }
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { try $0.execute(sql: "DELETE FROM team WHERE id = 1") }
        XCTAssertEqual(Set(observer.log.prefix(3)), ["didChange delete team 1", "didChange delete player 1", "didChange delete player 2"])
        observer.log.removeAll()
        try dbQueue.write { try $0.execute(sql: "INSERT INTO team (id, name) VALUES (5, 'Green')") }
        XCTAssertEqual(observer.take(), ["didChange insert team 5", "didChange insert log 1", "willCommit", "didCommit"])
    }

    func testDeleteWithoutWhereNotifiesEveryRow() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'A'), (2, 'B'), (3, 'C')") }
        let observer = RecordingObserver(observing: ["player"])
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { try $0.execute(sql: "DELETE FROM player") }
        XCTAssertEqual(
            observer.take(),
            [
                "didChange delete player 1", "didChange delete player 2", "didChange delete player 3", "willCommit", "didCommit",
            ])
    }

    func testInternalTablesDoNotReachObservers() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT)")
            try db.execute(sql: "CREATE VIRTUAL TABLE doc USING fts5(body)")
        }
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO item (name) VALUES ('a')")
            try db.execute(sql: "INSERT INTO doc (body) VALUES ('hello world')")
            try db.execute(sql: "ANALYZE")
        }
        let tables = Set(observer.events.map(\.tableName))
        XCTAssertTrue(tables.contains("item"))
        XCTAssertFalse(tables.contains { $0.hasPrefix("sqlite_") }, "\(tables)")
        XCTAssertFalse(tables.contains { $0.hasPrefix("doc_") }, "FTS shadow tables: \(tables)")
    }

    // MARK: - Using the connection from callbacks

    func testDidCommitMayWriteAndItsWritesAreObserved() throws {
        let dbQueue = try makeDatabase()
        let observer = RecordingObserver(observing: ["player", "team"])
        var didWrite = false
        observer.onDidCommit = { db in
            guard !didWrite else { return }
            didWrite = true
            try db.execute(sql: "INSERT INTO team (id, name) VALUES (9, 'From didCommit')")
        }
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") }
        XCTAssertEqual(
            observer.take(),
            [
                "didChange insert player 1", "willCommit", "didCommit",
                "didChange insert team 9", "willCommit", "didCommit",
            ])
    }

    func testDidChangeMustNotUseTheConnection() throws {
        try assertFatalError(inScenario: "RippleTests.ObservationFatalErrorScenarios/testUseConnectionInDidChange", "these callbacks must not use it")
    }

    // MARK: - Pre-update hook

    func testPreUpdateEvents() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'A', 10)") }
        let observer = RecordingObserver(observing: ["player"])
        observer.recordsPreUpdates = true
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "UPDATE player SET score = 20 WHERE id = 1")
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (2, 'B')")
            try db.execute(sql: "DELETE FROM player WHERE id = 1")
        }
        let events = observer.preUpdateEvents
        XCTAssertEqual(events.map(\.kind), [.update, .insert, .delete])
        XCTAssertEqual(events[0].tableName, "player")
        XCTAssertEqual(events[0].databaseName, "main")
        XCTAssertEqual(events[0].initialRowID, 1)
        XCTAssertEqual(events[0].finalRowID, 1)
        XCTAssertEqual(events[0].count, 4)
        XCTAssertEqual(events[0].depth, 0)
        XCTAssertEqual(events[0].initialDatabaseValues?[2], 10.databaseValue)
        XCTAssertEqual(events[0].finalDatabaseValues?[2], 20.databaseValue)
        XCTAssertNil(events[1].initialRowID)
        XCTAssertNil(events[1].initialDatabaseValues)
        XCTAssertEqual(events[1].finalDatabaseValues?[1], "B".databaseValue)
        XCTAssertNil(events[2].finalDatabaseValues)
        XCTAssertEqual(events[2].initialDatabaseValues?[1], "A".databaseValue)
    }

    func testPreUpdateValuesOneColumnAtATime() throws {
        final class ScoreObserver: TransactionObserver, @unchecked Sendable {
            var live: [String] = []
            var copies: [DatabasePreUpdateEvent] = []
            func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
            func databaseDidChange(with event: DatabaseEvent) {}
            func databaseDidCommit(_ db: Database) {}
            func databaseDidRollback(_ db: Database) {}
            func databaseWillChange(with event: DatabasePreUpdateEvent) {
                let kind: String =
                    switch event.kind {
                    case .insert: "insert"
                    case .update: "update"
                    case .delete: "delete"
                    }
                live.append(
                    "\(kind) \(String(describing: event.initialDatabaseValue(atIndex: 2))) \(String(describing: event.finalDatabaseValue(atIndex: 2)))"
                )
                copies.append(event.copy())
            }
        }
        let dbQueue = try makeDatabase()
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'A', 10)") }
        let observer = ScoreObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "UPDATE player SET score = 20 WHERE id = 1")
            try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (2, 'B', 5)")
            try db.execute(sql: "DELETE FROM player WHERE id = 1")
        }
        XCTAssertEqual(
            observer.live,
            [
                "update Optional(10) Optional(20)",
                "insert nil Optional(5)",
                "delete Optional(20) nil",
            ])
        // Copies answer the same, after the callback.
        XCTAssertEqual(observer.copies.map { $0.initialDatabaseValue(atIndex: 2) }, [10.databaseValue, nil, 20.databaseValue])
        XCTAssertEqual(observer.copies.map { $0.finalDatabaseValue(atIndex: 2) }, [20.databaseValue, 5.databaseValue, nil])
    }

    func testPreUpdateReportsTriggerDepth() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            try db.execute(
                sql: "CREATE TABLE log (message TEXT); CREATE TRIGGER t AFTER INSERT ON team BEGIN INSERT INTO log VALUES (new.name); END;")
        }
        let observer = RecordingObserver()
        observer.recordsPreUpdates = true
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { try $0.execute(sql: "INSERT INTO team (id, name) VALUES (2, 'Red')") }
        XCTAssertEqual(observer.preUpdateEvents.map(\.depth), [0, 1])
        XCTAssertEqual(observer.preUpdateEvents.map(\.tableName), ["team", "log"])
    }

    // MARK: - Undetected changes

    func testNotifyChanges() throws {
        let dbQueue = try makeDatabase()
        let players = RecordingObserver(observing: ["player"])
        let teams = RecordingObserver(observing: ["team"])
        let schema = RecordingObserver(observing: ["sqlite_master"])
        dbQueue.add(transactionObserver: players)
        dbQueue.add(transactionObserver: teams)
        dbQueue.add(transactionObserver: schema)
        try dbQueue.write { db in
            try db.notifyChanges(in: .fullDatabase)
        }
        XCTAssertEqual(players.take(), ["didChange()", "willCommit", "didCommit"])
        XCTAssertEqual(teams.take(), ["didChange()", "willCommit", "didCommit"])
        // As in GRDB, the whole database is its tables, not the schema table.
        XCTAssertEqual(schema.take(), ["willCommit", "didCommit"])
        try dbQueue.write { db in
            try db.notifyChanges(in: Table("player"))
        }
        XCTAssertEqual(players.take(), ["didChange()", "willCommit", "didCommit"])
        // Not interested in the player table: notified of the transaction only.
        XCTAssertEqual(teams.take(), ["willCommit", "didCommit"])
        _ = schema.take()
        try dbQueue.write { db in
            try db.notifyChanges(in: Player.all())
            try db.notifyChanges(in: Table("sqlite_master"))
        }
        XCTAssertEqual(players.take(), ["didChange()", "willCommit", "didCommit"])
        XCTAssertEqual(schema.take(), ["didChange()", "willCommit", "didCommit"])
    }

    func testNotifyChangesInAnEmptyDatabaseTellsNoChange() throws {
        let dbQueue = try DatabaseQueue()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { try $0.notifyChanges(in: .fullDatabase) }
        // No table, nothing changed: the transaction only.
        XCTAssertEqual(observer.take(), ["willCommit", "didCommit"])
    }

    func testPoolObservers() throws {
        let dbPool = try DatabasePool(path: makeTemporaryDatabasePath(self))
        try dbPool.write { try $0.execute(sql: "CREATE TABLE t(a)") }
        let observer = RecordingObserver()
        dbPool.add(transactionObserver: observer)
        try dbPool.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
        XCTAssertEqual(observer.take(), ["didChange insert t 1", "willCommit", "didCommit"])
        dbPool.remove(transactionObserver: observer)
        try dbPool.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
        XCTAssertEqual(observer.take(), [])
    }

    func testEventCopyOutlivesTheCallback() throws {
        let dbQueue = try makeDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('A')") }
        XCTAssertEqual(observer.events.first?.tableName, "player")
        XCTAssertEqual(observer.events.first?.databaseName, "main")
        XCTAssertEqual(observer.events.first?.rowID, 1)
        XCTAssertEqual(observer.events.first?.kind, .insert)
    }
}
