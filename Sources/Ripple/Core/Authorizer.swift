import CSQLite

/// Collects a ``StatementReport`` while a statement compiles. One per connection, installed
/// as its SQLite authorizer.
///
/// SQLite asks the authorizer when Ripple prepares a statement, and again when
/// `sqlite3_step` finds that the schema changed since the statement was prepared (a
/// trigger created, a table altered, by this connection or another one) and compiles it
/// anew: what the statement writes may then have changed. The authorizer collects those
/// later authorizations too, and the connection swaps them in as the statement's new
/// report (see `Database.resolveRecompilation(of:)`), before any row is written.
///
/// Extensions such as FTS5 also prepare statements of their own while a statement steps;
/// their authorizations are collected the same way, and dropped when SQLite's count of
/// recompilations (`SQLITE_STMTSTATUS_REPREPARE`) shows the stepping statement was not
/// compiled again.
final class Authorizer {
    private var report = StatementReport()
    private var isCompiling = false
    /// The lowercased names of the tables and views the statement being compiled drops:
    /// SQLite then asks to authorize a DELETE of each, and an ignored one cancels the drop
    /// silently.
    private var droppedTables: Set<String> = []

    /// The statement `sqlite3_step` runs right now, set by ``Statement``; nil between steps.
    var steppingStatement: OpaquePointer?

    /// Authorizations collected while `collectionStatement` stepped, and that statement's
    /// recompilation count when the collection began.
    private(set) var collection: StatementReport?
    private(set) var collectionStatement: OpaquePointer?
    private(set) var collectionReprepareCount: CInt = 0

    /// Called when a collection begins, inside `sqlite3_step`: the broker makes sure it will
    /// hear the statement's row changes.
    var collectionDidBegin: (() -> Void)?

    /// Installs the authorizer on a connection. The connection owns the authorizer and
    /// removes it before closing (see `uninstall(from:)`).
    func install(on connection: OpaquePointer) {
        sqlite3_set_authorizer(
            connection,
            { context, actionCode, cString1, cString2, cString3, _ in
                _CallbackContext<Authorizer>.object(context).authorize(actionCode, cString1, cString2, cString3)
            }, _CallbackContext.unretained(self))
    }

    func uninstall(from connection: OpaquePointer) {
        sqlite3_set_authorizer(connection, nil, nil)
        _CallbackContext.revoke(self)
    }

    /// Runs `compile` and returns what the authorizer saw meanwhile.
    func report<T>(compiling compile: () throws -> T) rethrows -> (T, StatementReport) {
        let previous = (report, isCompiling, droppedTables)
        report = StatementReport()
        isCompiling = true
        droppedTables = []
        defer { (report, isCompiling, droppedTables) = previous }
        let result = try compile()
        report.finish()
        return (result, report)
    }

    /// Takes the collected authorizations, finished as a report.
    func takeCollection() -> StatementReport? {
        guard let collection else { return nil }
        self.collection = nil
        collectionStatement = nil
        droppedTables = []
        collection.finish()
        return collection
    }

    private func authorize(
        _ actionCode: CInt, _ cString1: UnsafePointer<CChar>?, _ cString2: UnsafePointer<CChar>?, _ cString3: UnsafePointer<CChar>?
    ) -> CInt {
        let report: StatementReport
        if isCompiling {
            report = self.report
        } else if let steppingStatement {
            if let collection {
                report = collection
            } else {
                report = StatementReport()
                collection = report
                collectionStatement = steppingStatement
                collectionReprepareCount = sqlite3_stmt_status(steppingStatement, SQLITE_STMTSTATUS_REPREPARE, 0)
                droppedTables = []
                collectionDidBegin?()
            }
        } else {
            // A statement compiled through the raw C API: not Ripple's to observe.
            return SQLITE_OK
        }
        return authorize(actionCode, cString1, cString2, cString3, into: report)
    }

    private func authorize(
        _ actionCode: CInt, _ cString1: UnsafePointer<CChar>?, _ cString2: UnsafePointer<CChar>?, _ cString3: UnsafePointer<CChar>?,
        into report: StatementReport
    ) -> CInt {
        switch actionCode {
        case SQLITE_READ:
            guard let table = cString1.map({ String(cString: $0) }) else { break }
            let column = cString2.map { String(cString: $0) } ?? ""
            // An empty column: the table is read, but none of its column values.
            let columns: Set<String> = column.isEmpty ? [] : [column]
            report.readRegion.formUnion(DatabaseRegion(table: table, columns: columns))
        case SQLITE_INSERT:
            // Table names come as the schema spells them, whatever the statement's spelling.
            if let table = cString1 { report.recordInsert(String(cString: table)) }
        case SQLITE_DELETE:
            if let cTable = cString1 {
                let table = String(cString: cTable)
                report.recordDelete(table)
                // Ignoring the authorization of a DELETE disables the truncate optimization,
                // so that each deleted row is reported by the row hooks. Not for a table,
                // view or virtual table being dropped: SQLite would then not drop it, and say
                // nothing.
                if !StatementReport.isInternalTable(table) && !droppedTables.contains(table.lowercased()) {
                    return SQLITE_IGNORE
                }
            }
        case SQLITE_UPDATE:
            if let table = cString1, let column = cString2 {
                report.recordUpdate(String(cString: table), column: String(cString: column))
            }
        case SQLITE_TRANSACTION:
            // FK actions and some deletes report a nested "BEGIN": only the first effect of a
            // statement is its own.
            if report.transactionEffect == nil, report.savepointEffect == nil, let cOperation = cString1 {
                switch String(cString: cOperation) {
                case "BEGIN": report.transactionEffect = .begin
                case "COMMIT": report.transactionEffect = .commit
                case "ROLLBACK": report.transactionEffect = .rollback
                default: break
                }
            }
        case SQLITE_SAVEPOINT:
            if let cOperation = cString1, let cName = cString2 {
                let name = String(cString: cName)
                switch String(cString: cOperation) {
                case "BEGIN": report.savepointEffect = .begin(name)
                case "RELEASE": report.savepointEffect = .release(name)
                case "ROLLBACK": report.savepointEffect = .rollback(name)
                default: break
                }
            }
        case SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_TABLE, SQLITE_DROP_VIEW, SQLITE_DROP_TEMP_VIEW, SQLITE_DROP_VTABLE:
            report.changesSchema = true
            if let table = cString1.map({ String(cString: $0).lowercased() }) {
                droppedTables.insert(table)
                report.tablesChangedBySchema.insert(table)
            }
        case SQLITE_ALTER_TABLE:
            // The table name comes second, after the database name.
            report.changesSchema = true
            if let table = cString2.map({ String(cString: $0).lowercased() }) {
                report.tablesChangedBySchema.insert(table)
            }
        case SQLITE_CREATE_INDEX...SQLITE_CREATE_VIEW, SQLITE_DROP_INDEX...SQLITE_DROP_TRIGGER,
            SQLITE_ATTACH, SQLITE_DETACH, SQLITE_CREATE_VTABLE:
            report.changesSchema = true
        default:
            break
        }
        return SQLITE_OK
    }
}
