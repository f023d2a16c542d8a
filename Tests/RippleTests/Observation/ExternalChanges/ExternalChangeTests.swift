import CSQLite
import Foundation
import XCTest

@testable import Ripple

/// Commits of other processes (the `ripple-external-writer` executable of the package) and
/// other connections reach observers: as changes to the whole database with the default
/// configuration, table-precise when both sides turn on `logsChangedTables`; never
/// missed, never told twice.
final class ExternalChangeTests: XCTestCase {
    // MARK: - Support

    /// The second process: commands on its standard input, an "ok" line for each.
    final class ExternalWriter {
        let process = Process()
        private let input = Pipe()
        private let output = Pipe()
        private var buffer = Data()

        init(_ kind: String, path: String, environment: [String: String] = [:]) throws {
            process.executableURL = Self.executableURL
            process.arguments = [kind, path]
            if !environment.isEmpty {
                process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            }
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            XCTAssertEqual(try readLine(), "ready")
        }

        deinit {
            if process.isRunning { process.terminate() }
        }

        static var executableURL: URL {
            // The products' directory: where the test executable (Linux) or bundle (Apple
            // platforms) is.
            #if os(Linux)
            let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            #else
            let directory = Bundle(for: ExternalChangeTests.self).bundleURL.deletingLastPathComponent()
            #endif
            return directory.appendingPathComponent("ripple-external-writer")
        }

        private func readLine() throws -> String {
            while true {
                if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer = Data(buffer[(newline + 1)...])
                    return line
                }
                let data = output.fileHandleForReading.availableData
                guard !data.isEmpty else { throw DatabaseError(message: "the external writer ended") }
                buffer.append(data)
            }
        }

        /// Sends a command and waits until it is done.
        func send(_ command: String) throws {
            input.fileHandleForWriting.write(Data((command + "\n").utf8))
            let answer = try readLine()
            XCTAssertEqual(answer, "ok", command)
        }

        /// Sends a command that answers a value ("value V", then "ok"), and returns V.
        func ask(_ command: String) throws -> String {
            input.fileHandleForWriting.write(Data((command + "\n").utf8))
            let answer = try readLine()
            XCTAssertEqual(try readLine(), "ok", command)
            guard answer.hasPrefix("value ") else { throw DatabaseError(message: "unexpected answer: \(answer)") }
            return String(answer.dropFirst("value ".count))
        }

        /// Ends the process.
        func quit() {
            input.fileHandleForWriting.write(Data("quit\n".utf8))
            process.waitUntilExit()
        }

        /// Kills the process, as a crash would.
        func kill() {
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Runs a check now, on the writer (the checks also run by themselves).
    private func check(_ writer: some DatabaseWriter) {
        _ = writer.unsafeReentrantWrite { $0.checkExternalChanges() }
    }

    /// Reads the writer's tracker of external changes, on the writer's queue (where it
    /// lives); nil when there is none.
    private func tracker<T>(_ writer: some DatabaseWriter, _ value: (ExternalChangeTracker) -> T) -> T? {
        writer.unsafeReentrantWrite { db in db.state.value.observation.externalChanges.map(value) }
    }

    private func configuration(precise: Bool = false) -> Configuration {
        var config = Configuration()
        config.busyMode = .timeout(10)
        config.logsChangedTables = precise
        return config
    }

    /// The environment of an external writer that logs its tables.
    static let precise = ["RIPPLE_LOGS_CHANGED_TABLES": "1"]

    enum Kind { case pool, walQueue, rollbackQueue }

    private func makeObserved(_ kind: Kind, path: String, precise: Bool = false) throws -> any DatabaseWriter {
        switch kind {
        case .pool:
            return try DatabasePool(path: path, configuration: configuration(precise: precise))
        case .walQueue, .rollbackQueue:
            let dbQueue = try DatabaseQueue(path: path, configuration: configuration(precise: precise))
            if kind == .walQueue {
                try dbQueue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
            }
            return dbQueue
        }
    }

    /// An observed database with tables `player` and `team`, a value observation of the
    /// player count that counts its fetches, and a region observation of `team`.
    final class Observed {
        let writer: any DatabaseWriter
        let playerFetches = ChangeCounter()
        let teamChanges = ChangeCounter()
        let playerCounts = LockedBox<[Int]>([])
        var cancellables: [AnyDatabaseCancellable] = []

        init(_ writer: any DatabaseWriter, creatingTables: Bool = true) throws {
            self.writer = writer
            if creatingTables {
                try writer.write { db in
                    try db.execute(
                        sql: "CREATE TABLE IF NOT EXISTS player (id INTEGER PRIMARY KEY); CREATE TABLE IF NOT EXISTS team (id INTEGER PRIMARY KEY)")
                }
            }
            let playerFetches = playerFetches
            let playerCounts = playerCounts
            let teamChanges = teamChanges
            cancellables.append(
                ValueObservation
                    .tracking { db -> Int in
                        playerFetches.increment()
                        return try Table("player").fetchCount(db)
                    }
                    .start(in: writer, scheduling: .async(onQueue: DispatchQueue(label: "player")), onError: { XCTFail("\($0)") }) { count in
                        playerCounts.update { $0.append(count) }
                    })
            cancellables.append(
                DatabaseRegionObservation(tracking: Table("team"))
                    .start(in: writer, onError: { XCTFail("\($0)") }, onChange: { _ in teamChanges.increment() }))
        }

        var lastPlayerCount: Int? { playerCounts.value.last }
    }

    /// Waits until the player observation delivered its first value, and observes the
    /// region that fetch read. (Until then a pool's observation watches the whole
    /// database: it sets its region on the writer queue, after its first fetch.)
    private func waitForInitialValue(_ observed: Observed) throws {
        try waitUntil("initial value") { observed.lastPlayerCount == 0 }
        observed.writer.unsafeReentrantWrite { _ in }
    }

    // MARK: - Ripple writers that log their tables: precise to the table

    private func assertRippleWriterIsPrecise(_ kind: Kind) throws {
        let path = try makeTemporaryDatabasePath(self)
        let observed = try Observed(makeObserved(kind, path: path, precise: true))
        try waitForInitialValue(observed)
        let writer = try ExternalWriter("ripple", path: path, environment: Self.precise)
        try assertPreciseCommits(of: writer, observed)
        XCTAssertEqual(observed.playerFetches.count, 2)
        XCTAssertEqual(observed.teamChanges.count, 3)
        writer.quit()
    }

    /// Three commits of `writer` to `team`, each seen, none fetched by the player
    /// observation; then one to `player`, seen.
    private func assertPreciseCommits(of writer: ExternalWriter, _ observed: Observed) throws {
        for index in 1...3 {
            try writer.send("insert team")
            // Each commit is seen.
            try waitUntil("team commit \(index)") { observed.teamChanges.count == index }
        }
        // The player observation did not fetch for the team commits.
        XCTAssertEqual(observed.playerFetches.count, 1)
        try writer.send("insert player")
        try waitUntil("player commit") { observed.lastPlayerCount == 1 }
    }

    func testRippleWriterIsPreciseToTheTableOnAPool() throws {
        try assertRippleWriterIsPrecise(.pool)
    }

    func testRippleWriterIsPreciseToTheTableOnAWALQueue() throws {
        try assertRippleWriterIsPrecise(.walQueue)
    }

    func testRippleWriterIsPreciseToTheTableOnARollbackJournalQueue() throws {
        try assertRippleWriterIsPrecise(.rollbackQueue)
    }

    // MARK: - Other writers: the whole database

    private func assertRawWriterChangesTheWholeDatabase(
        _ kind: Kind, command: String = "insert", writerKind: String = "raw", precise: Bool = false
    ) throws {
        let path = try makeTemporaryDatabasePath(self, name: "whole-\(kind).sqlite")
        let observed = try Observed(makeObserved(kind, path: path, precise: precise))
        try waitForInitialValue(observed)
        let writer = try ExternalWriter(writerKind, path: path, environment: precise ? Self.precise : [:])
        for index in 1...3 {
            try writer.send("\(command) team")
            try waitUntil("team commit \(index)") { observed.teamChanges.count == index }
            // No log tells which table changed: the player observation fetches again.
            try waitUntil("player fetch \(index)") { observed.playerFetches.count == index + 1 }
        }
        try writer.send("\(command) player")
        try waitUntil("player commit") { observed.lastPlayerCount == 1 }
        writer.quit()
    }

    func testRawWriterChangesTheWholeDatabaseOnAPool() throws {
        try assertRawWriterChangesTheWholeDatabase(.pool)
    }

    func testRawWriterChangesTheWholeDatabaseOnARollbackJournalQueue() throws {
        try assertRawWriterChangesTheWholeDatabase(.rollbackQueue)
    }

    func testRippleWriterChangesTheWholeDatabaseByDefault() throws {
        for kind in [Kind.pool, .walQueue, .rollbackQueue] {
            try assertRawWriterChangesTheWholeDatabase(kind, writerKind: "ripple")
        }
    }

    func testRippleStatementsOutsideOfTransactionsChangeTheWholeDatabase() throws {
        // An INSERT outside of a transaction commits by itself, without a log entry.
        try assertRawWriterChangesTheWholeDatabase(.pool, command: "autocommit", writerKind: "ripple", precise: true)
    }

    // MARK: - A writer killed in the middle of a transaction

    private func assertKilledWriterNotifiesNothing(_ kind: Kind, precise: Bool) throws {
        let path = try makeTemporaryDatabasePath(self, name: "killed-\(kind)-\(precise).sqlite")
        let observed = try Observed(makeObserved(kind, path: path, precise: precise))
        try waitForInitialValue(observed)
        let environment = precise ? Self.precise : [:]
        let writer = try ExternalWriter("ripple", path: path, environment: environment)
        try writer.send("hang player")
        writer.kill()
        // The rolled back work is never told, however often the file is checked.
        for _ in 0..<3 { check(observed.writer) }
        XCTAssertEqual(observed.teamChanges.count, 0)
        XCTAssertEqual(try observed.writer.read { try Table("player").fetchCount($0) }, 0)

        // The next commit is seen.
        let next = try ExternalWriter("ripple", path: path, environment: environment)
        try next.send("insert player")
        try waitUntil("next commit") { observed.lastPlayerCount == 1 }
        XCTAssertEqual(observed.playerCounts.value.filter { $0 != 0 }, [1], "the killed writer's row was never seen")
        if precise { XCTAssertEqual(observed.teamChanges.count, 0) }
        next.quit()
    }

    func testKilledWriterNotifiesNothingOnAPool() throws {
        try assertKilledWriterNotifiesNothing(.pool, precise: false)
        try assertKilledWriterNotifiesNothing(.pool, precise: true)
    }

    func testKilledWriterNotifiesNothingOnARollbackJournalQueue() throws {
        try assertKilledWriterNotifiesNothing(.rollbackQueue, precise: false)
        try assertKilledWriterNotifiesNothing(.rollbackQueue, precise: true)
    }

    // MARK: - The process's own writes

    func testOwnWritesAreNotFetchedTwice() throws {
        for kind in [Kind.pool, .walQueue, .rollbackQueue] {
            for precise in [false, true] {
                let path = try makeTemporaryDatabasePath(self, name: "own-\(kind)-\(precise).sqlite")
                let observed = try Observed(makeObserved(kind, path: path, precise: precise))
                try waitForInitialValue(observed)
                for index in 1...5 {
                    try observed.writer.write { try $0.execute(sql: "INSERT INTO team DEFAULT VALUES") }
                    try observed.writer.write { try $0.execute(sql: "INSERT INTO player DEFAULT VALUES") }
                    try waitUntil("own commit \(index)") { observed.lastPlayerCount == index }
                }
                // Checks after the process's own commits find nothing to tell.
                for _ in 0..<3 { check(observed.writer) }
                XCTAssertEqual(observed.playerFetches.count, 6, "\(kind), precise: \(precise)")
                XCTAssertEqual(observed.teamChanges.count, 5, "\(kind), precise: \(precise)")
                XCTAssertGreaterThan(tracker(observed.writer) { $0.checks } ?? 0, 0)
                XCTAssertEqual(tracker(observed.writer) { $0.fullDatabaseVerdicts }, 0, "\(kind), precise: \(precise)")
            }
        }
    }

    /// After a checkpoint that copied the whole log into the file, the next commit of the
    /// connection starts a new log (SQLite resets it): that commit is still known as its own,
    /// and tells nothing to the observers of other tables.
    func testOwnCommitThatResetsTheLogIsNotAnotherWritersCommit() throws {
        for kind in [Kind.pool, .walQueue] {
            for precise in [false, true] {
                let path = try makeTemporaryDatabasePath(self, name: "reset-\(kind)-\(precise).sqlite")
                let observed = try Observed(makeObserved(kind, path: path, precise: precise))
                try waitForInitialValue(observed)
                for index in 1...3 {
                    try observed.writer.write { try $0.execute(sql: "INSERT INTO player DEFAULT VALUES") }
                    try waitUntil("own commit \(index)") { observed.lastPlayerCount == index }
                    check(observed.writer)
                    let result = try observed.writer.writeWithoutTransaction { try $0.checkpoint(.passive) }
                    XCTAssertEqual(result.checkpointedFrameCount, result.walFrameCount, "the whole log is in the file")
                    XCTAssertGreaterThan(result.walFrameCount, 0)
                    // This commit starts the new log.
                    try observed.writer.write { try $0.execute(sql: "INSERT INTO team DEFAULT VALUES") }
                    try waitUntil("own team commit \(index)") { observed.teamChanges.count >= index }
                    check(observed.writer)
                }
                XCTAssertEqual(observed.playerFetches.count, 4, "\(kind), precise: \(precise)")
                XCTAssertEqual(observed.teamChanges.count, 3, "\(kind), precise: \(precise)")
                XCTAssertEqual(tracker(observed.writer) { $0.fullDatabaseVerdicts }, 0, "\(kind), precise: \(precise)")
            }
        }
    }

    /// An observer added inside a transaction (which holds the file's lock, as `write` does
    /// from `BEGIN IMMEDIATE` on) finds where the file stands: the connection's own commits
    /// are not told again as other connections' changes.
    func testAnObserverAddedInsideATransactionTellsNothingOfItsOwn() throws {
        for kind in [Kind.rollbackQueue, .walQueue, .pool] {
            let path = try makeTemporaryDatabasePath(self, name: "inside-\(kind).sqlite")
            let writer = try makeObserved(kind, path: path)
            try writer.write { try $0.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY)") }
            let observer = EventRecorder(table: "player")
            try writer.write { db in
                db.add(transactionObserver: observer, extent: .databaseLifetime)
                try db.execute(sql: "INSERT INTO player DEFAULT VALUES")
            }
            try writer.writeWithoutTransaction { db in
                try db.execute(sql: "BEGIN EXCLUSIVE TRANSACTION")
                try db.execute(sql: "ROLLBACK")
            }
            for _ in 0..<3 { check(writer) }
            XCTAssertEqual(tracker(writer) { $0.fullDatabaseVerdicts }, 0, "\(kind)")
            XCTAssertEqual(observer.events, ["change player", "willCommit", "didCommit", "didRollback"], "\(kind)")
        }
    }

    /// The commit log's statements are not compiled before the log exists: a statement
    /// that fails to compile reaches the application's SQLite error log ("no such table"),
    /// and leaves the connection an error value that each later statement copies.
    func testTheLogIsNotCompiledBeforeItExists() throws {
        for kind in [Kind.pool, .walQueue, .rollbackQueue] {
            for precise in [false, true] {
                let path = try makeTemporaryDatabasePath(self, name: "uncompiled-\(kind)-\(precise).sqlite")
                let writer = try makeObserved(kind, path: path, precise: precise)
                try writer.write { try $0.execute(sql: "CREATE TABLE t (a)") }
                try writer.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
                XCTAssertEqual(tracker(writer) { $0.failedCompilations }, 0, "\(kind)")
                let observed = try Observed(writer)
                try waitForInitialValue(observed)
                let other = try ExternalWriter("ripple", path: path, environment: precise ? Self.precise : [:])
                try other.send("insert player")
                try waitUntil("the other commit") { observed.lastPlayerCount == 1 }
                check(writer)
                XCTAssertEqual(tracker(writer) { $0.failedCompilations }, 0, "\(kind)")
                XCTAssertGreaterThan(tracker(writer) { $0.checks } ?? 0, 0, "\(kind)")
                other.quit()
            }
        }
    }

    // MARK: - Bursts

    func testABurstOfCommitsCostsFewerChecksThanCommits() throws {
        let path = try makeTemporaryDatabasePath(self)
        let observed = try Observed(makeObserved(.pool, path: path, precise: true))
        try waitForInitialValue(observed)
        let writer = try ExternalWriter("ripple", path: path, environment: Self.precise)
        func verdicts() -> Int {
            tracker(observed.writer) { $0.preciseVerdicts + $0.fullDatabaseVerdicts } ?? 0
        }
        let verdictsBefore = verdicts()
        // The burst happens while the writer is busy: then checks are few.
        try observed.writer.unsafeReentrantWrite { _ in try writer.send("burst player 100") }
        try waitUntil("the last commit") { observed.lastPlayerCount == 100 }
        XCTAssertLessThanOrEqual(verdicts() - verdictsBefore, 3)
        XCTAssertLessThanOrEqual(observed.playerFetches.count, 4)
        XCTAssertEqual(observed.teamChanges.count, 0, "precise")
        writer.quit()
    }

    // MARK: - Transaction observers

    final class EventRecorder: TransactionObserver, @unchecked Sendable {  // `events` behind `lock`
        private let lock = NSLock()
        private var _events: [String] = []
        let table: String
        init(table: String) { self.table = table }
        var events: [String] { lock.withLock { _events } }
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { eventKind.tableName == table }
        func databaseDidChange(with event: DatabaseEvent) { lock.withLock { _events.append("change \(event.tableName)") } }
        func databaseDidChange() { lock.withLock { _events.append("didChange") } }
        func databaseWillCommit() throws { lock.withLock { _events.append("willCommit") } }
        func databaseDidCommit(_ db: Database) { lock.withLock { _events.append("didCommit") } }
        func databaseDidRollback(_ db: Database) { lock.withLock { _events.append("didRollback") } }
    }

    func testTransactionObserversHearDidChangeThenDidCommit() throws {
        let path = try makeTemporaryDatabasePath(self)
        let pool = try DatabasePool(path: path, configuration: configuration(precise: true))
        try pool.write { try $0.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY); CREATE TABLE team (id INTEGER PRIMARY KEY)") }
        let playerObserver = EventRecorder(table: "player")
        let teamObserver = EventRecorder(table: "team")
        pool.add(transactionObserver: playerObserver)
        pool.add(transactionObserver: teamObserver)
        let writer = try ExternalWriter("ripple", path: path, environment: Self.precise)
        try writer.send("insert player")
        try waitUntil("commit") { playerObserver.events.contains("didCommit") }
        // No row events (the commit happened elsewhere), no veto.
        XCTAssertEqual(playerObserver.events, ["didChange", "didCommit"])
        XCTAssertEqual(teamObserver.events, ["didCommit"], "precise: the team observer hears the commit, not a change")
        let raw = try ExternalWriter("raw", path: path)
        try raw.send("insert team")
        try waitUntil("raw commit") { teamObserver.events.count == 3 }
        XCTAssertEqual(teamObserver.events, ["didCommit", "didChange", "didCommit"])
        XCTAssertEqual(playerObserver.events, ["didChange", "didCommit", "didChange", "didCommit"], "whole database")
        writer.quit()
        raw.quit()
    }

    // MARK: - Read-only observers (replicas)

    func testReadOnlyObserverIsPreciseWhenWritersLog() throws {
        let path = try makeTemporaryDatabasePath(self)
        // (A writer keeps the write-ahead log and the wal-index in place, as the replication
        // process of a replica does.)
        let setUp = try DatabasePool(path: path)
        try setUp.write { try $0.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY); CREATE TABLE team (id INTEGER PRIMARY KEY)") }
        defer { withExtendedLifetime(setUp) {} }
        var config = configuration(precise: true)
        config.readonly = true
        // (The primary creates the commit log when it opens: a schema change, before the
        // observation starts.)
        let primary = try ExternalWriter("ripple", path: path, environment: Self.precise)
        let replica = try DatabasePool(path: path, configuration: config)
        let observed = try Observed(replica, creatingTables: false)
        try waitForInitialValue(observed)
        // Writers that log their tables are precise for it, the others are whole-database.
        try assertPreciseCommits(of: primary, observed)
        let plain = try ExternalWriter("ripple", path: path)
        try plain.send("insert team")
        try waitUntil("whole database") { observed.playerFetches.count == 3 }
        primary.quit()
        plain.quit()
    }

    // MARK: - Another connection of the same process

    func testAnotherConnectionOfTheProcessIsAnotherWriter() throws {
        let path = try makeTemporaryDatabasePath(self)
        let observed = try Observed(makeObserved(.pool, path: path, precise: true))
        try waitForInitialValue(observed)
        let other = try DatabasePool(path: path, configuration: configuration(precise: true))
        try other.write { try $0.execute(sql: "INSERT INTO team DEFAULT VALUES") }
        try waitUntil("team commit") { observed.teamChanges.count == 1 }
        XCTAssertEqual(observed.playerFetches.count, 1, "precise: the other pool logged its commit")
        try other.write { try $0.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        try waitUntil("player commit") { observed.lastPlayerCount == 1 }
    }

    // MARK: - Checkpoints

    func testCheckpointAndResetBetweenTwoChecksStillNotifies() throws {
        let path = try makeTemporaryDatabasePath(self)
        var config = configuration()
        config.externalChangeCheckInterval = nil
        let observedPool = try DatabasePool(path: path, configuration: config)
        let observed = try Observed(observedPool)
        try waitForInitialValue(observed)
        // Another connection commits, checkpoints and resets the log, and commits again,
        // with no check in between (the observed writer is kept busy meanwhile).
        var otherConfig = configuration()
        otherConfig.observesExternalChanges = false
        let other = try DatabaseQueue(path: path, configuration: otherConfig)
        try observed.writer.unsafeReentrantWrite { _ in
            try other.writeWithoutTransaction { db in
                try db.execute(sql: "INSERT INTO player DEFAULT VALUES")
                try db.execute(sql: "PRAGMA wal_checkpoint(RESTART)")
                try db.execute(sql: "INSERT INTO team DEFAULT VALUES")
            }
        }
        try waitUntil("notified") { observed.lastPlayerCount == 1 && observed.teamChanges.count >= 1 }
    }

    /// The observed pool truncates the log itself (`Database.checkpoint`); the next commit
    /// of another connection, which starts a new log, is seen.
    func testOwnTruncatingCheckpointThenAnotherWriterIsSeen() throws {
        let path = try makeTemporaryDatabasePath(self)
        let observed = try Observed(makeObserved(.pool, path: path, precise: false))
        try waitForInitialValue(observed)
        let other = try DatabaseQueue(path: path, configuration: configuration())
        try other.write { try $0.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        try waitUntil("first commit") { observed.lastPlayerCount == 1 }
        let result = try observed.writer.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        XCTAssertEqual(result.walFrameCount, 0, "truncated")
        try other.write { try $0.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        try waitUntil("commit after the checkpoint") { observed.lastPlayerCount == 2 }
        XCTAssertEqual(try other.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") }, 2)
    }

    // MARK: - The log is hidden

    func testCommitLogIsHiddenFromTheApplication() throws {
        let path = try makeTemporaryDatabasePath(self)
        let pool = try DatabasePool(path: path, configuration: configuration(precise: true))
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in try db.create(table: "player") { $0.autoIncrementedPrimaryKey("id") } }
        try migrator.migrate(pool)

        // Observers of everything hear nothing of the log's own transactions.
        let fullDatabaseChanges = ChangeCounter()
        let commits = ChangeCounter()
        let observer = CommitCounter(commits)
        pool.add(transactionObserver: observer)
        let cancellable = DatabaseRegionObservation(tracking: .fullDatabase)
            .start(in: pool, onError: { XCTFail("\($0)") }, onChange: { _ in fullDatabaseChanges.increment() })
        // Another writer logs its commits.
        let other = try DatabaseQueue(path: path, configuration: configuration(precise: true))
        try other.write { try $0.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        try waitUntil("the other commit") { fullDatabaseChanges.count == 1 }
        XCTAssertEqual(try pool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM \(CommitLog.logTable)") }, 2, "the migration and the insert")
        for _ in 0..<3 { check(pool) }
        XCTAssertEqual(fullDatabaseChanges.count, 1)
        XCTAssertEqual(commits.count, 1)

        try pool.read { db in
            XCTAssertFalse(try db.tableExists(CommitLog.logTable))
            XCTAssertFalse(try migrator.hasSchemaChanges(db))
        }
        // The last inserted rowid and the change counts are the application's.
        let totalBefore = try other.write { db in
            let total = db.totalChangesCount
            try db.execute(sql: "INSERT INTO player (id) VALUES (42)")
            XCTAssertEqual(db.lastInsertedRowID, 42)
            try db.execute(sql: "UPDATE player SET id = id WHERE id >= 42")
            XCTAssertEqual(db.changesCount, 1)
            return total
        }
        other.unsafeReentrantWrite { db in
            XCTAssertEqual(db.lastInsertedRowID, 42)
            XCTAssertEqual(db.changesCount, 1)
            XCTAssertEqual(db.totalChangesCount, totalBefore + 2)
        }
        withExtendedLifetime((cancellable, observer)) {}
    }

    final class CommitCounter: TransactionObserver, @unchecked Sendable {
        let counter: ChangeCounter
        init(_ counter: ChangeCounter) { self.counter = counter }
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) {}
        func databaseDidCommit(_ db: Database) { counter.increment() }
        func databaseDidRollback(_ db: Database) {}
    }

    // MARK: - Activity

    func testNothingIsWatchedWhileNothingObserves() throws {
        let path = try makeTemporaryDatabasePath(self)
        let pool = try DatabasePool(path: path, configuration: configuration())
        XCTAssertEqual(tracker(pool) { $0.isActive }, false)
        var cancellable: AnyDatabaseCancellable? = DatabaseRegionObservation(tracking: .fullDatabase)
            .start(in: pool, onError: { XCTFail("\($0)") }, onChange: { _ in })
        XCTAssertEqual(tracker(pool) { $0.isActive }, true)
        cancellable?.cancel()
        cancellable = nil
        // (The cancellation removes the observer on the writer queue: an access after it
        // sees the watch stopped.)
        try pool.write { try $0.execute(sql: "CREATE TABLE t (x)") }
        XCTAssertEqual(tracker(pool) { $0.isActive }, false, "the last observer went")

        var config = configuration()
        config.observesExternalChanges = false
        let unobserved = try DatabasePool(path: path, configuration: config)
        XCTAssertNil(tracker(unobserved) { $0 })
        let inMemory = try DatabaseQueue()
        XCTAssertNil(tracker(inMemory) { $0 })
    }

    func testClosingTheConnectionStopsTheWatch() throws {
        for kind in [Kind.pool, .rollbackQueue] {
            let path = try makeTemporaryDatabasePath(self)
            let observed = try makeObserved(kind, path: path)
            let cancellable = DatabaseRegionObservation(tracking: .fullDatabase)
                .start(in: observed, onError: { XCTFail("\($0)") }, onChange: { _ in })
            let monitor: ExternalChangeMonitor? =
                (observed as? DatabasePool)?.externalChangeMonitor
                ?? (observed as? DatabaseQueue)?.externalChangeMonitor
            XCTAssertEqual(monitor?.isWatching, true, "\(kind)")
            try observed.close()
            XCTAssertEqual(monitor?.isWatching, false, "\(kind): nothing left to tell once closed")
            withExtendedLifetime(cancellable) {}
        }
    }

    func testCommitLogIsPruned() throws {
        let path = try makeTemporaryDatabasePath(self)
        var config = configuration()
        config.observesExternalChanges = false
        config.logsChangedTables = true
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY)") }
        let count = Int(CommitLog.keptEntries) + 300
        for _ in 0..<count {
            try dbQueue.write { try $0.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        }
        let (entries, lastSequence) = try dbQueue.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT count(*) FROM \(CommitLog.logTable)")!,
                try Int.fetchOne(db, sql: "SELECT max(seq) FROM \(CommitLog.logTable)")!
            )
        }
        XCTAssertEqual(lastSequence, count + 1)
        XCTAssertLessThanOrEqual(entries, Int(CommitLog.keptEntries) + 256)
        XCTAssertGreaterThanOrEqual(entries, Int(CommitLog.keptEntries))
    }

    func testTheLogIsWrittenOnlyWhenAsked() throws {
        let path = try makeTemporaryDatabasePath(self)
        var config = configuration(precise: true)
        config.observesExternalChanges = false
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY)") }
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        try dbQueue.read { db in
            let tables = try String?.fetchAll(db, sql: "SELECT tables FROM \(CommitLog.logTable) ORDER BY seq")
            XCTAssertEqual(tables, [nil, "player"], "the schema change, then the insert")
        }
        // A writer without the setting, observed, logs nothing.
        let other = try DatabaseQueue(path: path, configuration: configuration())
        let cancellable = DatabaseRegionObservation(tracking: .fullDatabase).start(in: other, onError: { XCTFail("\($0)") }, onChange: { _ in })
        try other.write { try $0.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        XCTAssertEqual(try other.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM \(CommitLog.logTable)") }, 2)
        withExtendedLifetime(cancellable) {}
    }
}

/// A value shared between threads.
final class LockedBox<Value>: @unchecked Sendable {  // `_value` behind `lock`
    private let lock = NSLock()
    private var _value: Value
    init(_ value: Value) { _value = value }
    var value: Value { lock.withLock { _value } }
    func update(_ body: (inout Value) -> Void) { lock.withLock { body(&_value) } }
}
