import CSQLite
import Foundation

/// The commit log: how a Ripple connection tells other processes which tables its
/// transactions changed, when ``Configuration/logsChangedTables`` is on.
///
/// One table, `_ripple_commit_log`, created when the writer opens (in a transaction of its
/// own), and hidden from the application (Ripple's introspection, regions and
/// `DatabaseMigrator.hasSchemaChanges` never show it; observers never hear of its changes;
/// its statements never reach the application's trace). One entry per logged
/// transaction, written inside that transaction just before it commits: the writer's
/// identifier, the tables it may have changed, and the key of the commit (``CommitKey``:
/// what comes just before it in the write-ahead log, or the file change counter), which
/// observers find again in the file. Pruned to its last ``keptEntries`` entries.
///
/// The log only makes other processes' observations precise: each commit the file shows
/// must find its entry, and a commit without one is a change to the whole database (see
/// ``ExternalChangeVerdict``). Without the setting, nothing is written, and every commit of
/// another process is a change to the whole database.
enum CommitLog {
    static let logTable = RippleTables.commitLog

    /// How many entries the log keeps: an observer that misses more (a long pause of its
    /// process) sees a change to the whole database.
    static let keptEntries: Int64 = 4096

    static let createSQL = """
        CREATE TABLE IF NOT EXISTS \(logTable) (seq INTEGER PRIMARY KEY, writer INTEGER NOT NULL, tables TEXT, generation INTEGER, previous INTEGER NOT NULL)
        """
    static let insertSQL = "INSERT INTO \(logTable) (writer, tables, generation, previous) VALUES (?, ?, ?, ?)"
    static let updateSQL = "UPDATE \(logTable) SET tables = ?, generation = ?, previous = ? WHERE seq = ?"
    static let pruneSQL = "DELETE FROM \(logTable) WHERE seq <= ?"
    /// The entries that may describe commits after a WAL position (generation, frame).
    static let walEntriesSQL = "SELECT generation, previous, writer, tables FROM \(logTable) WHERE generation = ? AND previous >= ?"
    /// The entries that may describe commits after a change counter value.
    static let rollbackEntriesSQL = "SELECT generation, previous, writer, tables FROM \(logTable) WHERE generation IS NULL AND previous >= ?"

    /// The text of an entry's tables: the lowercased names, one per line; NULL when the
    /// transaction changed the schema.
    static func encode(_ tables: Set<String>?) -> String? {
        tables.map { $0.sorted().joined(separator: "\n") }
    }

    static func decode(_ text: String?) -> Set<String>? {
        guard let text else { return nil }
        return Set(text.split(separator: "\n").map(String.init))
    }

}

/// What a connection may log of the transaction that runs (see ``CommitLog``): the
/// reports of its statements that write, gathered as they run (a comparison with the last
/// one for each statement), read only when the transaction commits and logs.
struct CommitLogTransaction {
    private(set) var reports: [StatementReport] = []
    /// The entry written at a RELEASE that did not end the transaction, updated at its end.
    var entrySequence: Int64?
    /// Forgets everything, for the next transaction (keeping its storage).
    mutating func reset() {
        // (`removeLast`, inlined, rather than `removeAll(keepingCapacity:)`, a generic
        // `replaceSubrange` call at each transaction (measured: Benchmarks/README.md, "Shortcuts").)
        while !reports.isEmpty { reports.removeLast() }
        entrySequence = nil
    }

    /// Adds the report of a statement that may write (`mayWrite` or `changesSchema`), once
    /// for a statement run again and again.
    @inline(__always)
    mutating func add(_ report: StatementReport) {
        // (The check inline, the append out of line: a statement run in a loop is checked
        // without retaining its report, W1a.)
        guard reports.last !== report else { return }
        append(report)
    }

    @inline(never)
    private mutating func append(_ report: StatementReport) {
        assert(report.mayWrite || report.changesSchema, "only the reports of statements that write")
        reports.append(report)
    }

    /// Whether there is something to log.
    var hasWrites: Bool { !reports.isEmpty }

    /// The tables written (lowercased); nil when the schema changed.
    var tables: Set<String>? {
        var tables: Set<String> = []
        for report in reports {
            if report.changesSchema { return nil }
            for writes in report.writes { tables.insert(writes.key) }
        }
        return tables
    }
}

/// A statement compiled through the C API, that Ripple's observation never sees (the
/// authorizer ignores it, the broker's hooks skip its rows): the commit log's own reads
/// and writes.
final class UnobservedStatement {
    let handle: OpaquePointer

    init?(_ connection: OpaquePointer, sql: String) {
        var handle: OpaquePointer?
        guard sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil) == SQLITE_OK, let handle else {
            sqlite3_finalize(handle)
            return nil
        }
        self.handle = handle
    }

    deinit { sqlite3_finalize(handle) }

    func bind(_ index: CInt, _ value: Int64) { sqlite3_bind_int64(handle, index, value) }
    func bind(_ index: CInt, _ value: Int64?) {
        if let value { sqlite3_bind_int64(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }
    func bind(_ index: CInt, _ value: Double) { sqlite3_bind_double(handle, index, value) }
    func bind(_ index: CInt, _ value: String?) {
        if let value {
            sqlite3_bind_text(handle, index, value, -1, ripple_sqlite_transient())
        } else {
            sqlite3_bind_null(handle, index)
        }
    }

    /// Runs the statement to its end; the result code of the failure, if any.
    @discardableResult
    func run() -> CInt {
        defer { sqlite3_reset(handle) }
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_ROW { continue }
            return code == SQLITE_DONE ? SQLITE_OK : code
        }
    }

    /// The rows, each read by `row`; nil when the statement fails.
    func rows<T>(_ row: (OpaquePointer) -> T) -> [T]? {
        defer { sqlite3_reset(handle) }
        var rows: [T] = []
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_ROW {
                rows.append(row(handle))
                continue
            }
            return code == SQLITE_DONE ? rows : nil
        }
    }

    static func text(_ statement: OpaquePointer, _ column: CInt) -> String? {
        guard let text = sqlite3_column_text(statement, column) else { return nil }
        return String(cString: text)
    }
}
