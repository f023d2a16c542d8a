import CSQLite
import Foundation
import XCTest

@testable import Ripple

/// Observing a database has no side effect on anyone else who uses the file: with the
/// default configuration on both sides, another connection's or process's writes never
/// fail because of it, the file holds only the application's tables, and the
/// application's trace shows only its own statements.
final class GoodNeighbourTests: XCTestCase {
    typealias ExternalWriter = ExternalChangeTests.ExternalWriter

    enum Mode: CaseIterable { case rollbackJournal, wal }

    private func makeWriter(_ mode: Mode, path: String, configuration: Configuration = Configuration()) throws -> any DatabaseWriter {
        switch mode {
        case .rollbackJournal: return try DatabaseQueue(path: path, configuration: configuration)
        case .wal: return try DatabasePool(path: path, configuration: configuration)
        }
    }

    /// The table names of the file, read with the C API (Ripple's introspection hides its
    /// own tables).
    private func tableNames(_ path: String) throws -> [String] {
        var connection: OpaquePointer?
        guard sqlite3_open_v2(path, &connection, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            throw DatabaseError(message: "could not open \(path)")
        }
        defer { sqlite3_close_v2(connection) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", -1, &statement, nil) == SQLITE_OK
        else {
            throw DatabaseError(message: "could not read the schema")
        }
        defer { sqlite3_finalize(statement) }
        var names: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW { names.append(String(cString: sqlite3_column_text(statement, 0))) }
        return names
    }

    final class ChangeRecorder: TransactionObserver, @unchecked Sendable {  // counter is thread-safe
        let changes = ChangeCounter()
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) { changes.increment() }
        func databaseDidChange() { changes.increment() }
        func databaseDidCommit(_ db: Database) {}
        func databaseDidRollback(_ db: Database) {}
    }

    /// Starts a value observation of the player count: its values, and its cancellable.
    private func observePlayerCount(in writer: any DatabaseWriter) -> (LockedBox<[Int]>, AnyDatabaseCancellable) {
        let counts = LockedBox<[Int]>([])
        let cancellable =
            ValueObservation
            .tracking { try Table("player").fetchCount($0) }
            .start(
                in: writer, scheduling: .async(onQueue: DispatchQueue(label: "counts")),
                onError: { XCTFail("\($0)") },
                onChange: { count in counts.update { $0.append(count) } })
        return (counts, cancellable)
    }

    // MARK: - Other connections' writes never fail

    /// Two connections of one process on one file, default configuration (no busy
    /// timeout): the second writes while the first observes, and never fails.
    func testAnotherConnectionOfTheProcessNeverFails() throws {
        for mode in Mode.allCases {
            let path = try makeTemporaryDatabasePath(self, name: "neighbour-\(mode).sqlite")
            let first = try makeWriter(mode, path: path)
            try first.write { try $0.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY)") }
            let observer = ChangeRecorder()
            first.add(transactionObserver: observer)
            let regionChanges = ChangeCounter()
            let cancellable = DatabaseRegionObservation(tracking: Table("player"))
                .start(in: first, onError: { XCTFail("\($0)") }, onChange: { _ in regionChanges.increment() })
            let second = try makeWriter(mode, path: path)
            let count = 200
            for index in 0..<count {
                do {
                    try second.write { try $0.execute(sql: "INSERT INTO player DEFAULT VALUES") }
                } catch {
                    XCTFail("\(mode): write \(index) failed: \(error)")
                    break
                }
                usleep(1000)
            }
            XCTAssertEqual(try second.read { try Table("player").fetchCount($0) }, count)
            // The observers heard of the commits (ground truth: the observed connection
            // reads them all).
            try waitUntil("\(mode): commits seen") { regionChanges.count > 0 && observer.changes.count > 0 }
            XCTAssertEqual(try first.read { try Table("player").fetchCount($0) }, count)
            withExtendedLifetime(cancellable) {}
        }
    }

    /// Another process writes 1,000 one-row transactions with the default configuration
    /// (no busy timeout) while this one observes the table with a value observation: none
    /// fails, the observation never fails, and it ends with the table's content.
    func testAnotherProcessNeverFails() throws {
        for mode in Mode.allCases {
            let path = try makeTemporaryDatabasePath(self, name: "process-\(mode).sqlite")
            let observed = try makeWriter(mode, path: path)
            try observed.write { try $0.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY)") }
            let (counts, cancellable) = observePlayerCount(in: observed)
            try waitUntil("\(mode): initial value") { counts.value.last == 0 }
            let writer = try ExternalWriter("ripple", path: path, environment: ["RIPPLE_BUSY_MODE": "immediate"])
            if mode == .wal {
                try writer.send("paced player 1000 1000")
            } else {
                // A fetch, like any read, holds a shared lock while it runs, and a writer
                // without a busy timeout that commits during a fetch fails: each commit
                // waits for the value of the one before (only the fetch the application
                // asked for reads the file with a lock).
                for count in 1...1000 {
                    try writer.send("insert player")
                    try waitUntil("\(mode): value \(count)") { counts.value.last == count }
                }
            }
            let truth = try observed.read { try Table("player").fetchCount($0) }
            XCTAssertEqual(truth, 1000, "\(mode)")
            try waitUntil("\(mode): last value") { counts.value.last == truth }
            writer.quit()
            withExtendedLifetime(cancellable) {}
        }
    }

    // MARK: - Nothing written, nothing traced

    /// A fresh database observed for a while, with observers of every kind, commits of its
    /// own and of another process, has exactly the application's tables afterwards.
    func testObservingWritesNoTable() throws {
        for mode in Mode.allCases {
            let path = try makeTemporaryDatabasePath(self, name: "tables-\(mode).sqlite")
            let writer = try makeWriter(mode, path: path)
            try writer.write { try $0.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY); CREATE TABLE team (id INTEGER PRIMARY KEY)") }
            let observer = ChangeRecorder()
            writer.add(transactionObserver: observer)
            let regionChanges = ChangeCounter()
            let (counts, countCancellable) = observePlayerCount(in: writer)
            let cancellables = [
                DatabaseRegionObservation(tracking: .fullDatabase)
                    .start(in: writer, onError: { XCTFail("\($0)") }, onChange: { _ in regionChanges.increment() }),
                countCancellable,
            ]
            try writer.write { try $0.execute(sql: "INSERT INTO player DEFAULT VALUES") }
            let other = try ExternalWriter("ripple", path: path)
            try other.send("insert player")
            try other.send("insert team")
            try waitUntil("\(mode): the other process's commits") { counts.value.last == 2 }
            other.quit()
            try writer.write { try $0.execute(sql: "INSERT INTO team DEFAULT VALUES") }
            XCTAssertEqual(try tableNames(path), ["player", "team"], "\(mode)")
            withExtendedLifetime((cancellables, observer)) {}
        }
    }

    /// The trace of the application's transactions is the same with observers present as
    /// without, with or without the commit log.
    func testTheTraceShowsOnlyTheApplicationsStatements() throws {
        for mode in Mode.allCases {
            for logsChangedTables in [false, true] {
                let path = try makeTemporaryDatabasePath(self, name: "trace-\(mode)-\(logsChangedTables).sqlite")
                var config = Configuration()
                config.logsChangedTables = logsChangedTables
                let writer = try makeWriter(mode, path: path, configuration: config)
                try writer.write { try $0.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)") }
                func traced() throws -> [String] {
                    let statements = LockedBox<[String]>([])
                    writer.writeWithoutTransaction { db in
                        db.trace { event in statements.update { $0.append(event.description) } }
                    }
                    for name in ["Arthur", "Barbara", "Craig"] {
                        try writer.write { try $0.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: [name]) }
                    }
                    writer.writeWithoutTransaction { $0.trace(nil) }
                    return statements.value
                }
                let without = try traced()
                XCTAssertFalse(without.isEmpty)
                let observer = ChangeRecorder()
                writer.add(transactionObserver: observer)
                let cancellable = DatabaseRegionObservation(tracking: .fullDatabase)
                    .start(in: writer, onError: { XCTFail("\($0)") }, onChange: { _ in })
                let with = try traced()
                XCTAssertEqual(with, without, "\(mode), logsChangedTables: \(logsChangedTables)")
                XCTAssertEqual(observer.changes.count, 3)
                withExtendedLifetime(cancellable) {}
            }
        }
    }

    // MARK: - Databases of earlier versions

    /// A database that holds the tables of an earlier version keeps working: the tables
    /// stay as they are, and other processes' commits are seen.
    func testTablesOfAnEarlierVersionAreLeftAlone() throws {
        for mode in Mode.allCases {
            let path = try makeTemporaryDatabasePath(self, name: "earlier-\(mode).sqlite")
            let setUp = try makeWriter(mode, path: path)
            try setUp.write { db in
                try db.execute(
                    sql: """
                        CREATE TABLE player (id INTEGER PRIMARY KEY);
                        CREATE TABLE _ripple_commit_log (seq INTEGER PRIMARY KEY, writer INTEGER NOT NULL, tables TEXT, generation INTEGER, previous INTEGER NOT NULL);
                        CREATE TABLE _ripple_commit_subscriber (writer INTEGER PRIMARY KEY, expires REAL NOT NULL);
                        INSERT INTO _ripple_commit_log (writer, tables, generation, previous) VALUES (1, 'player', NULL, 0);
                        INSERT INTO _ripple_commit_subscriber (writer, expires) VALUES (1, 0);
                        """)
            }
            try setUp.close()
            let observed = try makeWriter(mode, path: path)
            let (counts, cancellable) = observePlayerCount(in: observed)
            let other = try ExternalWriter("ripple", path: path)
            try other.send("insert player")
            try waitUntil("\(mode): the other commit") { counts.value.last == 1 }
            other.quit()
            XCTAssertEqual(try tableNames(path), ["_ripple_commit_log", "_ripple_commit_subscriber", "player"])
            try observed.read { db in
                XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM _ripple_commit_log"), 1)
                XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM _ripple_commit_subscriber"), 1)
            }
            withExtendedLifetime(cancellable) {}
        }
    }

    private func waitUntil(_ message: String, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(20)
        while try !condition() {
            if Date() > deadline { throw DatabaseError(message: "timeout: \(message)") }
            usleep(1000)
        }
    }
}
