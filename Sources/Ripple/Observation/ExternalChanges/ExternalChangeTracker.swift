import CSQLite
import Dispatch
import Foundation

/// What the writer connection of a ``DatabaseQueue`` or ``DatabasePool`` on a file keeps to
/// observe other processes' commits, and to log its own for them when asked (see
/// ``CommitLog``). Only used on the writer's queue (`db.observation.externalChanges`).
///
/// While it is active (some observer is registered), it knows where the last check left
/// the file: the position in the write-ahead log (WAL mode), or the file change counter
/// expected (rollback-journal mode). A check reads the file without a lock and without
/// SQL, compares it with that, tells observers, and moves on (see
/// `Database.checkExternalChanges()`).
final class ExternalChangeTracker: StatementExecutionHook {
    /// Told to start and stop watching the file.
    weak var monitor: ExternalChangeMonitor?

    // The tracker is confined to the writer's queue; its state is read and changed in
    // short accesses that call out to no observer.
    let state: _ExclusiveAccessBox<ExternalChangeTrackerState>

    /// This connection's identifier in the commit log: random, so that processes need not
    /// agree on anything.
    var writerID: Int64 { state.value.writerID }
    /// ``Configuration/logsChangedTables``: log this connection's transactions, and read
    /// the entries of other connections' commits.
    var logsChangedTables: Bool { state.value.logsChangedTables }
    /// Whether observers are registered, and the file is watched.
    var isActive: Bool { state.value.isActive }

    /// The number of checks so far, that read the file, and of the verdicts of those that
    /// found commits (for tests).
    var checks: Int { state.value.checks }
    var preciseVerdicts = 0
    var fullDatabaseVerdicts = 0

    private var statements: [String: UnobservedStatement] = [:]
    private let connection: OpaquePointer

    init(connection: OpaquePointer, logsChangedTables: Bool) {
        self.connection = connection
        state = _ExclusiveAccessBox(
            ExternalChangeTrackerState(writerID: Int64.random(in: 1...Int64.max), logsChangedTables: logsChangedTables))
    }

    /// A statement of the log, compiled once; nil when it does not compile (the log's
    /// tables do not exist yet).
    func statement(_ sql: String) -> UnobservedStatement? {
        if let statement = statements[sql] { return statement }
        guard logTablesExist(for: sql) else { return nil }
        guard let statement = UnobservedStatement(connection, sql: sql) else {
            failedCompilations += 1
            return nil
        }
        statements[sql] = statement
        return statement
    }

    /// The statements that did not compile (for tests: none should, on a healthy file).
    private(set) var failedCompilations = 0

    /// Whether the log's table exists (true for SQL that does not use it), asked before
    /// `sql` is compiled: a statement of a missing table fails to compile, which SQLite
    /// reports to the application's error log (`SQLITE_CONFIG_LOG`: "no such table"), and
    /// the connection then keeps an error value that each later `sqlite3_reset` copies (a
    /// cost on every statement of the application, W1a).
    private func logTablesExist(for sql: String) -> Bool {
        let table = CommitLog.logTable
        guard sql.contains(table) else { return true }
        // (Compiled for each question, not kept: a kept one, compiled before the log was
        // created, would meet the schema change at its next step, which SQLite compiles
        // again after an internal SQLITE_SCHEMA error that it keeps on the connection, with
        // the same per-statement cost as above, W1c. It is asked only until the log exists.)
        guard let lookup = UnobservedStatement(connection, sql: "SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = ?") else {
            return false
        }
        lookup.bind(1, table)
        return lookup.rows { _ in true }?.isEmpty == false
    }

    /// A transaction statement starts: BEGIN or SAVEPOINT outside of a transaction starts
    /// gathering what the transaction writes; COMMIT or RELEASE inside a transaction writes
    /// its entry first, if it logs.
    override func transactionStatementWillStart(_ statement: Statement) {
        guard logsChangedTables else { return }
        let db = statement.database
        if !db.isInsideTransaction {
            state.value.transaction.reset()
            return
        }
        let report = statement.report
        let mayEnd: Bool
        if report.transactionEffect == .commit {
            mayEnd = true
        } else if case .release? = report.savepointEffect {
            mayEnd = true
        } else {
            mayEnd = false
        }
        guard mayEnd, state.value.transaction.hasWrites, !db.isReadOnly else { return }
        db.withUnobservedWork {
            db.withHiddenWrites { writeEntry(key: state.value.keyOfNextCommit(db)) }
        }
    }

    /// A statement starts (or was compiled again): what it writes may go in the entry.
    override func writingStatementWillStart(_ statement: Statement) {
        state.value.transaction.add(statement.report)
    }

    /// Forgets the compiled statements: the connection closes.
    override func connectionWillClose() {
        uninstallWALHook()
        statements = [:]
        // A closed connection has no observer left to tell: the file watch and the poll
        // stop now, not when the DatabaseQueue or DatabasePool goes.
        if isActive {
            deactivate()
            monitor?.trackingDidStop()
        }
    }

    // MARK: Activity

    func activate() {
        guard !isActive else { return }
        state.value.isActive = true
        installWALHook()
    }

    func deactivate() {
        guard isActive else { return }
        uninstallWALHook()
        state.value.deactivate()
    }

    // MARK: The WAL hook: this connection's own commits

    /// The checkpoint threshold of SQLite's default WAL hook, which this one replaces
    /// (`PRAGMA wal_autocheckpoint`, read when installing).
    private var autocheckpoint: Int = 1000

    private func installWALHook() {
        var statement: OpaquePointer?
        if sqlite3_prepare_v2(connection, "PRAGMA wal_autocheckpoint", -1, &statement, nil) == SQLITE_OK,
            sqlite3_step(statement) == SQLITE_ROW
        {
            autocheckpoint = Int(sqlite3_column_int64(statement, 0))
        }
        sqlite3_finalize(statement)
        sqlite3_wal_hook(
            connection,
            { context, connection, databaseName, frameCount in
                guard let context, let connection, let databaseName else { return SQLITE_OK }
                let tracker = _CallbackContext<ExternalChangeTracker>.object(context)
                guard strcmp(databaseName, "main") == 0 else { return SQLITE_OK }
                tracker.state.value.ownCommitDidWrite(frameCount: Int(frameCount)) { Database.pagesWritten(connection) }
                // What SQLite's default hook does: checkpoint when the log grew long.
                if tracker.autocheckpoint > 0, Int(frameCount) >= tracker.autocheckpoint {
                    sqlite3_wal_checkpoint(connection, databaseName)
                }
                return SQLITE_OK
            }, _CallbackContext.unretained(self))
    }

    private func uninstallWALHook() {
        // Back to SQLite's default hook.
        sqlite3_wal_autocheckpoint(connection, CInt(clamping: autocheckpoint))
        _CallbackContext.revoke(self)
    }

    /// Writes the entry of the running transaction, just before a statement that may end
    /// it (COMMIT, RELEASE), with the key of the commit to come (nil: unknown, no entry).
    /// Failures are ignored: an entry that misses makes other processes see a change to the
    /// whole database, never miss one.
    func writeEntry(key: CommitKey?) {
        guard state.value.transaction.hasWrites, let key else { return }
        guard let insert = statement(CommitLog.insertSQL) else { return }
        let text = CommitLog.encode(state.value.transaction.tables)
        if let sequence = state.value.transaction.entrySequence, let update = statement(CommitLog.updateSQL) {
            update.bind(1, text)
            update.bind(2, key.generation.map { Int64($0) })
            update.bind(3, key.previous)
            update.bind(4, sequence)
            // (A ROLLBACK TO may have removed the entry: then it is written anew.)
            if update.run() == SQLITE_OK, sqlite3_changes(connection) == 1 { return }
        }
        insert.bind(1, writerID)
        insert.bind(2, text)
        insert.bind(3, key.generation.map { Int64($0) })
        insert.bind(4, key.previous)
        guard insert.run() == SQLITE_OK else { return }
        let sequence = sqlite3_last_insert_rowid(connection)
        state.value.transaction.entrySequence = sequence
        if sequence % 256 == 0, let prune = statement(CommitLog.pruneSQL) {
            prune.bind(1, sequence - CommitLog.keptEntries)
            prune.run()
        }
    }
}
