import Foundation
import XCTest

@testable import Ripple

/// The broker hears the rows of a statement that only inserts, into rowid tables, where no
/// REPLACE can delete a row, through SQLite's update hook, and every other statement
/// through the pre-update hook (RowHooks.swift). These tests check that the events are
/// the same either way: each case that needs the pre-update hook gets it, whatever the
/// statement ran with before.
///
/// An observer is assumed to want pre-update events until the first call of the default
/// `databaseWillChange(with:)` shows that it does not implement it: the first row change
/// it hears comes through the pre-update hook.
final class RowHookChoiceTests: XCTestCase {
    /// An observer of every row change that does not implement
    /// `databaseWillChange(with:)`: the update hook may serve it.
    final class RowEventObserver: TransactionObserver, @unchecked Sendable {  // used on the writer's queue only
        var events: [String] = []
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) {
            events.append("\(event.kind) \(event.tableName) \(event.rowID)")
        }
        /// The ends of transactions it heard of.
        var ends: [String] = []
        func databaseDidCommit(_ db: Database) { ends.append("didCommit") }
        func databaseDidRollback(_ db: Database) { ends.append("didRollback") }
    }

    /// An in-memory database with the schema, observed by a new `RowEventObserver`.
    private func makeObservedQueue(_ schema: String) throws -> (DatabaseQueue, RowEventObserver) {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: schema) }
        let observer = RowEventObserver()
        dbQueue.add(transactionObserver: observer)
        return (dbQueue, observer)
    }

    func testAFailedStatementOutsideOfATransactionEndsNothingForAnObserverWithoutPreUpdateEvents() throws {
        // The first row change of an observer goes to the default databaseWillChange(with:),
        // which tells nothing: the rollback of the failed statement is no news to it.
        let (dbQueue, observer) = try makeObservedQueue("CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT)")
        try dbQueue.writeWithoutTransaction { db in
            XCTAssertThrowsError(try db.execute(sql: "INSERT INTO item (id, name) VALUES (1, 'a'), (1, 'b')"))
        }
        XCTAssertEqual(observer.events, [])
        XCTAssertEqual(observer.ends, [])
    }

    func testPlainInsertsUseTheUpdateHookAndAreAllHeard() throws {
        let (dbQueue, observer) = try makeObservedQueue("CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT)")
        try dbQueue.write { db in
            let statement = try db.makeStatement(sql: "INSERT INTO item (name) VALUES (?)")
            try statement.execute(arguments: ["a"])
            XCTAssertEqual(db.observationBroker.installedRowHook, .preUpdate, "the observer's first row change")
            for name in ["b", "c"] {
                try statement.execute(arguments: [name])
                XCTAssertEqual(db.observationBroker.installedRowHook, .update)
            }
        }
        XCTAssertEqual(observer.events, ["insert item 1", "insert item 2", "insert item 3"])
    }

    func testReplaceDeletionsAreHeardAfterPlainInserts() throws {
        let (dbQueue, observer) = try makeObservedQueue(
            """
            CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT UNIQUE);
            CREATE TABLE tag (id INTEGER PRIMARY KEY, label TEXT UNIQUE ON CONFLICT REPLACE);
            """)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO item (id, name) VALUES (1, 'a')")
            try db.execute(sql: "INSERT INTO item (id, name) VALUES (4, 'd')")
            XCTAssertEqual(db.observationBroker.installedRowHook, .update)
            // The statement's REPLACE
            try db.execute(sql: "INSERT OR REPLACE INTO item (id, name) VALUES (2, 'a')")
            XCTAssertEqual(db.observationBroker.installedRowHook, .preUpdate)
            // The table's REPLACE
            try db.execute(sql: "INSERT INTO tag (id, label) VALUES (1, 'x')")
            try db.execute(sql: "INSERT INTO tag (id, label) VALUES (2, 'x')")
            XCTAssertEqual(db.observationBroker.installedRowHook, .preUpdate)
            // Back to plain inserts.
            try db.execute(sql: "INSERT INTO item (id, name) VALUES (3, 'b')")
            XCTAssertEqual(db.observationBroker.installedRowHook, .update)
        }
        XCTAssertEqual(
            observer.events,
            [
                "insert item 1", "insert item 4",
                "delete item 1", "insert item 2",
                "insert tag 1",
                "delete tag 1", "insert tag 2",
                "insert item 3",
            ])
    }

    func testAStatementPreparedBeforeAReplacingTriggerHearsItsDeletions() throws {
        let (dbQueue, observer) = try makeObservedQueue(
            """
            CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE latest (id INTEGER PRIMARY KEY, name TEXT UNIQUE);
            """)
        try dbQueue.writeWithoutTransaction { db in
            let statement = try db.makeStatement(sql: "INSERT INTO item (name) VALUES (?)")
            try statement.execute(arguments: ["a"])
            try db.execute(
                sql: """
                    CREATE TRIGGER keep_latest AFTER INSERT ON item BEGIN
                        INSERT OR REPLACE INTO latest (id, name) VALUES (1, 'last');
                    END
                    """)
            observer.events.removeAll()
            try statement.execute(arguments: ["b"])
            try statement.execute(arguments: ["c"])
        }
        XCTAssertEqual(
            observer.events,
            [
                "insert item 2", "insert latest 1",
                "insert item 3", "delete latest 1", "insert latest 1",
            ])
    }

    func testAStatementPreparedBeforeAnotherConnectionCreatedAReplacingTriggerHearsItsDeletions() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT);
                    CREATE TABLE latest (id INTEGER PRIMARY KEY, name TEXT UNIQUE);
                    INSERT INTO latest (id, name) VALUES (1, 'first');
                    """)
        }
        let observer = RowEventObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.writeWithoutTransaction { db in
            let statement = try db.makeStatement(sql: "INSERT INTO item (name) VALUES (?)")
            try statement.execute(arguments: ["a"])
            try statement.execute(arguments: ["a"])
            XCTAssertEqual(db.observationBroker.installedRowHook, .update)
            // Another connection creates the trigger: SQLite compiles the statement again
            // when it runs next, and the broker hears the new writes through the
            // pre-update hook.
            let other = try DatabaseQueue(path: path)
            try other.write { db in
                try db.execute(
                    sql: """
                        CREATE TRIGGER keep_latest AFTER INSERT ON item BEGIN
                            INSERT OR REPLACE INTO latest (id, name) VALUES (2, 'first');
                        END
                        """)
            }
            try other.close()
            observer.events.removeAll()
            try statement.execute(arguments: ["b"])
        }
        XCTAssertEqual(observer.events, ["insert item 3", "delete latest 1", "insert latest 2"])
    }

    func testInsertsIntoWithoutRowIDTablesUseThePreUpdateHook() throws {
        let (dbQueue, observer) = try makeObservedQueue("CREATE TABLE pair (a TEXT NOT NULL, b TEXT NOT NULL, PRIMARY KEY (a, b)) WITHOUT ROWID")
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO pair (a, b) VALUES ('x', 'y')")
            try db.execute(sql: "INSERT INTO pair (a, b) VALUES ('x', 'z')")
            XCTAssertEqual(db.observationBroker.installedRowHook, .preUpdate)
        }
        XCTAssertEqual(observer.events, ["insert pair 0", "insert pair 0"])
    }

    func testAnObserverOfPreUpdateEventsGetsThemForPlainInserts() throws {
        let (dbQueue, rowObserver) = try makeObservedQueue("CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT)")
        let preUpdateObserver = RecordingObserver()
        preUpdateObserver.recordsPreUpdates = true
        try dbQueue.writeWithoutTransaction { db in
            let statement = try db.makeStatement(sql: "INSERT INTO item (name) VALUES (?)")
            try statement.execute(arguments: ["a"])
            try statement.execute(arguments: ["a"])
            XCTAssertEqual(db.observationBroker.installedRowHook, .update)
            db.add(transactionObserver: preUpdateObserver)
            try statement.execute(arguments: ["b"])
            XCTAssertEqual(db.observationBroker.installedRowHook, .preUpdate)
            db.remove(transactionObserver: preUpdateObserver)
            try statement.execute(arguments: ["c"])
            XCTAssertEqual(db.observationBroker.installedRowHook, .update)
        }
        XCTAssertEqual(rowObserver.events, ["insert item 1", "insert item 2", "insert item 3", "insert item 4"])
        XCTAssertEqual(preUpdateObserver.preUpdateEvents.map { "\($0.kind) \($0.tableName) \($0.finalRowID ?? -1)" }, ["insert item 3"])
    }
}
