import CSQLite

/// What SQLite tells about a statement while it compiles it: what it reads, what it may
/// write, and whether it deals with transactions, savepoints or the schema.
// A class: the broker reads it on every execution, and a struct of collections would be
// retained field by field on each read. Only mutated while its statement compiles.
final class StatementReport: @unchecked Sendable {
    /// The tables and columns the statement reads.
    var readRegion = DatabaseRegion()
    /// Tables the statement may insert into, lowercased (triggers and FK actions included).
    var insertedTables: Set<String> = []
    /// Tables the statement may delete from, lowercased.
    var deletedTables: Set<String> = []
    /// Tables the statement may update, with the columns, lowercased.
    var updatedColumns: [String: Set<String>] = [:]
    /// A transaction statement: BEGIN, COMMIT or ROLLBACK.
    var transactionEffect: TransactionEffect?
    /// A savepoint statement: SAVEPOINT, RELEASE or ROLLBACK TO.
    var savepointEffect: SavepointEffect?
    /// Whether the statement changes the schema.
    var changesSchema = false

    enum TransactionEffect: Sendable { case begin, commit, rollback }
    enum SavepointEffect: Sendable {
        case begin(String)
        case release(String)
        case rollback(String)
    }

    /// Whether the statement may write to some table (set when compilation ends).
    private(set) var mayWrite = false

    /// Whether the statement begins, releases or rolls back a savepoint (set when
    /// compilation ends).
    private(set) var hasSavepointEffect = false

    /// Called when the statement is compiled.
    func finish() {
        mayWrite = !insertedTables.isEmpty || !deletedTables.isEmpty || !updatedColumns.isEmpty
        hasSavepointEffect = savepointEffect != nil
        // A statement that reads or writes tables is no transaction statement, whatever
        // nested effect SQLite reported for it (FK actions report a "BEGIN").
        if mayWrite || !readRegion.isEmpty { transactionEffect = nil }
    }

    /// The tables the statement may write to, lowercased.
    var writtenTables: Set<String> {
        insertedTables.union(deletedTables).union(updatedColumns.keys)
    }
}

/// Collects a ``StatementReport`` while a statement compiles. One per connection, installed
/// as its SQLite authorizer.
final class Authorizer {
    private var report = StatementReport()
    private var isCompiling = false
    /// Set once the statement being compiled showed it drops a table or a view: SQLite then
    /// asks to authorize a DELETE of it, and an ignored one cancels the drop silently.
    private var isDroppingTable = false

    /// Installs the authorizer on a connection.
    func install(on connection: OpaquePointer) {
        sqlite3_set_authorizer(connection, { context, actionCode, cString1, cString2, _, _ in
            let authorizer = Unmanaged<Authorizer>.fromOpaque(context!).takeUnretainedValue()
            return authorizer.authorize(actionCode, cString1, cString2)
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Runs `compile` and returns what the authorizer saw meanwhile.
    func report<T>(compiling compile: () throws -> T) rethrows -> (T, StatementReport) {
        report = StatementReport()
        isCompiling = true
        isDroppingTable = false
        defer { isCompiling = false }
        let result = try compile()
        report.finish()
        return (result, report)
    }

    private func authorize(_ actionCode: CInt, _ cString1: UnsafePointer<CChar>?, _ cString2: UnsafePointer<CChar>?) -> CInt {
        // Statements are recompiled by sqlite3_step after schema changes: only the first
        // compilation counts, and the others must not disturb an ongoing report.
        guard isCompiling else { return SQLITE_OK }
        switch actionCode {
        case SQLITE_READ:
            guard let table = cString1.map({ String(cString: $0) }) else { break }
            let column = cString2.map { String(cString: $0) } ?? ""
            // An empty column: the table is read, but none of its column values.
            let columns: Set<String> = column.isEmpty ? [] : [column]
            report.readRegion.formUnion(DatabaseRegion(table: table, columns: columns))
        case SQLITE_INSERT:
            if let table = cString1 { report.insertedTables.insert(String(cString: table).lowercased()) }
        case SQLITE_DELETE:
            if let cTable = cString1 {
                let table = String(cString: cTable).lowercased()
                report.deletedTables.insert(table)
                // Ignoring the authorization of a DELETE disables the truncate optimization,
                // so that each deleted row is reported by the update hook. Not for a table
                // being dropped: SQLite would then not drop it, and say nothing.
                if !table.hasPrefix("sqlite_") && !isDroppingTable { return SQLITE_IGNORE }
            }
        case SQLITE_UPDATE:
            if let table = cString1, let column = cString2 {
                report.updatedColumns[String(cString: table).lowercased(), default: []].insert(String(cString: column).lowercased())
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
        case SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_TABLE, SQLITE_DROP_VIEW, SQLITE_DROP_TEMP_VIEW:
            isDroppingTable = true
            report.changesSchema = true
        case SQLITE_CREATE_INDEX...SQLITE_CREATE_VIEW, SQLITE_DROP_INDEX...SQLITE_DROP_VIEW,
             SQLITE_ATTACH, SQLITE_DETACH, SQLITE_ALTER_TABLE, SQLITE_CREATE_VTABLE, SQLITE_DROP_VTABLE:
            report.changesSchema = true
        default:
            break
        }
        return SQLITE_OK
    }
}
