/// What SQLite tells about a statement while it compiles it: what it reads, what it may
/// write, and whether it deals with transactions, savepoints or the schema.
///
/// SQLite compiles a statement again by itself when the schema changed since it was
/// prepared (by this connection or another one): the connection then replaces the report
/// with the one of the new compilation (see ``Authorizer``).
///
/// A class: the broker reads it on every execution, and a struct of collections would be
/// retained field by field on each read. Only mutated while its statement compiles, on the
/// connection's queue.
final class StatementReport {
    /// The writes a statement may make to one table, directly or through triggers and
    /// foreign key actions.
    struct TableWrites: Equatable {
        /// The table name, as the schema spells it.
        let name: String
        /// The lowercased name, for case-insensitive comparisons.
        let key: String
        var inserts = false
        var deletes = false
        /// The updated columns as the schema spells them; nil when the table is not
        /// updated.
        var updatedColumns: Set<String>?

        init(name: String) {
            self.name = name
            self.key = name.lowercased()
        }
    }

    enum TransactionEffect: Equatable { case begin, commit, rollback }
    enum SavepointEffect: Equatable {
        case begin(String)
        case release(String)
        case rollback(String)
    }

    /// The tables and columns the statement reads.
    var readRegion = DatabaseRegion()
    /// The tables the statement may write, in the order SQLite reported them.
    private(set) var writes: [TableWrites] = []
    /// A transaction statement: BEGIN, COMMIT or ROLLBACK.
    var transactionEffect: TransactionEffect?
    /// A savepoint statement: SAVEPOINT, RELEASE or ROLLBACK TO.
    var savepointEffect: SavepointEffect?
    /// Whether the statement changes the schema.
    var changesSchema = false
    /// The lowercased names of the tables and views the statement drops or alters: their
    /// content changes without row events.
    var tablesChangedBySchema: Set<String> = []

    /// Whether the statement may write to some table (set when compilation ends).
    private(set) var mayWrite = false

    /// Whether the statement begins, releases or rolls back a savepoint.
    var hasSavepointEffect: Bool { savepointEffect != nil }

    func recordInsert(_ table: String) { withWrites(of: table) { $0.inserts = true } }
    func recordDelete(_ table: String) { withWrites(of: table) { $0.deletes = true } }
    func recordUpdate(_ table: String, column: String) {
        withWrites(of: table) { $0.updatedColumns = ($0.updatedColumns ?? []).union([column]) }
    }

    private func withWrites(of table: String, _ body: (inout TableWrites) -> Void) {
        // A handful of tables at most: a linear search beats hashing.
        if let index = writes.firstIndex(where: { $0.name == table }) {
            body(&writes[index])
        } else {
            var tableWrites = TableWrites(name: table)
            body(&tableWrites)
            writes.append(tableWrites)
        }
    }

    /// Called when the statement is compiled.
    func finish() {
        mayWrite = !writes.isEmpty
        // A statement that reads or writes tables is no transaction statement, whatever
        // nested effect SQLite reported for it (FK actions report a "BEGIN").
        if mayWrite || !readRegion.isEmpty { transactionEffect = nil }
    }

    /// The writes to `key` (a lowercased table name), if any.
    func writes(toTableKey key: String) -> TableWrites? {
        writes.first { $0.key == key }
    }
}

extension StatementReport {
    /// SQLite's own tables (`sqlite_master`, `sqlite_sequence`, `sqlite_stat1`, ...).
    static func isInternalTable(_ name: String) -> Bool {
        name.utf8.count >= 7 && name.lowercased().hasPrefix("sqlite_")
    }

    /// The tables that hold the schema: a statement that changes the schema writes them.
    static func isSchemaTable(key: String) -> Bool {
        key == "sqlite_master" || key == "sqlite_schema" || key == "sqlite_temp_master" || key == "sqlite_temp_schema"
    }
}
