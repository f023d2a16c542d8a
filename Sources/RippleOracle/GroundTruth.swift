import CSQLite
import Ripple

/// The content of the database, read straight from SQLite with the raw C API: the ground
/// truth the oracle compares observers with.
struct Snapshot: Equatable {
    struct TableContent: Equatable {
        var columns: [String]
        /// Rows by key (rowid, or the text primary key), values as text.
        var rows: [String: [String?]]
    }

    /// By lowercased table name; absent when the table does not exist.
    var tables: [String: TableContent] = [:]
    /// The schema (`sqlite_master` and `sqlite_temp_master`), as sorted text.
    var schema: [String] = []

    /// Reads the tables of `tables` and the schema.
    static func read(_ connection: OpaquePointer, tables: [OracleTable]) throws -> Snapshot {
        var snapshot = Snapshot()
        // (Ripple's commit log is its own, and never shown: see Configuration.logsChangedTables.)
        let schemaRows = try query(
            connection,
            """
            SELECT type, name, tbl_name, sql FROM sqlite_master WHERE tbl_name NOT IN ('_ripple_commit_log', '_ripple_commit_subscriber')
            UNION ALL SELECT type, name, tbl_name, sql FROM sqlite_temp_master
            """)
        snapshot.schema = schemaRows.rows.map { $0.map { $0 ?? "NULL" }.joined(separator: "|") }.sorted()
        let existing = Set(schemaRows.rows.filter { $0[0] == "table" }.compactMap { $0[1]?.lowercased() })
        for table in tables where existing.contains(table.key) {
            let result = try query(connection, "SELECT \(table.keyExpression) AS __key, * FROM \(table.quotedName)")
            var rows: [String: [String?]] = [:]
            for row in result.rows {
                rows[row[0] ?? "NULL"] = Array(row.dropFirst())
            }
            snapshot.tables[table.key] = TableContent(columns: Array(result.columns.dropFirst()), rows: rows)
        }
        return snapshot
    }

    /// The rows of a query, as text.
    static func query(_ connection: OpaquePointer, _ sql: String) throws -> QueryResult {
        let (columns, rows) = try rawQuery(connection, sql)
        return QueryResult(columns: columns, rows: rows)
    }

    struct QueryResult {
        let columns: [String]
        let rows: [[String?]]
        var canonicalRows: [String] { rows.map { Snapshot.canonical(columns: columns, row: $0) } }
    }

    static func rawQuery(_ connection: OpaquePointer, _ sql: String) throws -> (columns: [String], rows: [[String?]]) {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(connection, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw OracleError("ground truth query failed: \(String(cString: sqlite3_errmsg(connection))): \(sql)")
        }
        defer { sqlite3_finalize(statement) }
        let count = sqlite3_column_count(statement)
        let columns = (0..<count).map { String(cString: sqlite3_column_name(statement, $0)) }
        var rows: [[String?]] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
                throw OracleError("ground truth query failed: \(String(cString: sqlite3_errmsg(connection))): \(sql)")
            }
            rows.append(
                (0..<count).map { index in
                    sqlite3_column_text(statement, index).map { String(cString: $0) }
                })
        }
        return (columns, rows)
    }
}

/// What changed between two snapshots, table by table: the writes of one statement.
struct Writes {
    struct TableWrites {
        var inserted: Set<String> = []
        var deleted: Set<String> = []
        /// Updated rows, with the columns whose value changed.
        var updated: [String: Set<String>] = [:]
        /// The table was created, dropped, or changed shape (ALTER TABLE).
        var shapeChanged = false

        var isEmpty: Bool { inserted.isEmpty && deleted.isEmpty && updated.isEmpty && !shapeChanged }

        /// The keys of every row written.
        var rowKeys: Set<String> { inserted.union(deleted).union(updated.keys) }

        mutating func formUnion(_ other: TableWrites) {
            inserted.formUnion(other.inserted)
            deleted.formUnion(other.deleted)
            for (key, columns) in other.updated { updated[key, default: []].formUnion(columns) }
            shapeChanged = shapeChanged || other.shapeChanged
        }
    }

    var tables: [String: TableWrites] = [:]
    var schemaChanged = false

    var isEmpty: Bool { !schemaChanged && tables.values.allSatisfy(\.isEmpty) }

    init() {}

    init(from before: Snapshot, to after: Snapshot) {
        schemaChanged = before.schema != after.schema
        for key in Set(before.tables.keys).union(after.tables.keys) {
            var writes = TableWrites()
            let old = before.tables[key]
            let new = after.tables[key]
            if old == nil || new == nil || old!.columns != new!.columns { writes.shapeChanged = true }
            let oldRows = old?.rows ?? [:]
            let newRows = new?.rows ?? [:]
            let columns = new?.columns ?? old?.columns ?? []
            for (rowKey, values) in newRows {
                if let oldValues = oldRows[rowKey] {
                    if oldValues != values {
                        var changed: Set<String> = []
                        for (index, column) in columns.enumerated() where index >= oldValues.count || oldValues[index] != values[index] {
                            changed.insert(column.lowercased())
                        }
                        writes.updated[rowKey] = changed
                    }
                } else {
                    writes.inserted.insert(rowKey)
                }
            }
            for rowKey in oldRows.keys where newRows[rowKey] == nil {
                writes.deleted.insert(rowKey)
            }
            if !writes.isEmpty { tables[key] = writes }
        }
    }

    mutating func formUnion(_ other: Writes) {
        schemaChanged = schemaChanged || other.schemaChanged
        for (key, writes) in other.tables { tables[key, default: TableWrites()].formUnion(writes) }
    }
}

struct OracleError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
