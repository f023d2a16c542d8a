/// The primary key of a table, as the schema defines it.
public struct PrimaryKeyInfo: Hashable, Sendable {
    /// The primary key columns, in order. For a table without explicit primary key, the
    /// hidden `rowid`.
    public let columns: [String]
    /// The column that is an alias for the rowid (`id INTEGER PRIMARY KEY`); nil for the
    /// hidden rowid, and when the primary key is not the rowid (as in GRDB).
    public var rowIDColumn: String? { columnInfos == nil ? nil : rowIDName }
    /// The column that reads the rowid: the alias, or `rowid` for the hidden rowid; nil
    /// when the primary key is not the rowid.
    let rowIDName: String?
    /// Whether the table is a WITHOUT ROWID table (true for a view, which has no rowid).
    public let isWithoutRowID: Bool
    /// The primary key columns, in order; nil for the hidden `rowid`.
    public var columnInfos: [ColumnInfo]? = nil

    /// Whether the primary key is the rowid.
    public var isRowID: Bool { rowIDName != nil }
    /// Whether the table has a rowid: it is not a WITHOUT ROWID table.
    public var tableHasRowID: Bool { !isWithoutRowID }
}

/// A column of a table, as the schema defines it (`Database.columns(in:in:)`).
public struct ColumnInfo: Hashable, Sendable {
    /// The column name.
    public let name: String
    /// The declared type, as written in the schema (empty when the column has none).
    /// Compare it without regard to case.
    public let type: String
    /// Whether the column is `NOT NULL`.
    public let isNotNull: Bool
    /// The SQL of the default value (`'Anonymous'`, `0`, `CURRENT_TIMESTAMP`), or nil.
    public let defaultValueSQL: String?
    /// The position of the column in the primary key, from 1; 0 when it is not part of it.
    public let primaryKeyIndex: Int

    /// The declared type, or nil when the column has none.
    public var columnType: Database.ColumnType? {
        type.isEmpty ? nil : Database.ColumnType(rawValue: type)
    }
}

extension ColumnInfo {
    /// A column from a row of `PRAGMA table_info` or `table_xinfo`.
    init(tableInfoRow row: Row) throws {
        self.init(
            name: try row.decode(forColumn: "name"), type: try row.decode(forColumn: "type"), isNotNull: try row.decode(forColumn: "notnull"),
            defaultValueSQL: try row.decodeIfPresent(String.self, forColumn: "dflt_value"), primaryKeyIndex: try row.decode(forColumn: "pk"))
    }
}

/// Schema facts cached by a connection, dropped whenever a statement changes the schema.
struct SchemaCache {
    var primaryKeys: [String: PrimaryKeyInfo] = [:]
    var columns: [String: [ColumnInfo]] = [:]
    /// Whether the schema object of this lowercased name is a view.
    var isView: [String: Bool] = [:]
    /// The foreign keys of a table, by lowercased name: what associations are joined on.
    var foreignKeys: [String: [ForeignKeyInfo]] = [:]
    /// The unique keys of a table, by lowercased name, each a set of lowercased columns
    /// (none for a view): what `fetchOne` needs no `LIMIT 1` for.
    var uniqueKeys: [String: [[String]]] = [:]
}

extension Database {
    /// The columns of `table`, in order. Throws when there is no such table.
    ///
    /// ```swift
    /// let names = try db.columns(in: "player").map(\.name)   // ["id", "name", "score"]
    /// ```
    ///
    /// - parameter table: A table or view name.
    /// - parameter schemaName: The schema to look in (`"main"`, `"temp"`, the name of an
    ///   attached database); when nil, the first schema that has the table, in SQLite's
    ///   order (temp, main, then attached databases). Throws when there is no such schema.
    public func columns(in table: String, in schemaName: String? = nil) throws -> [ColumnInfo] {
        let key = try schemaCacheKey(table, in: schemaName)
        if let columns = schemaCache.columns[key] { return columns }
        let prefix = try schemaPrefix(schemaName)
        let rows = try withoutRecordingReads { try Row.fetchAll(self, sql: "PRAGMA \(prefix)table_xinfo(\(table.quotedDatabaseIdentifier))") }
        guard !rows.isEmpty else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(table)")
        }
        // (table_xinfo: generated columns too; hidden columns of virtual tables are left out.)
        let columns: [ColumnInfo] = try rows.compactMap { row in
            let hidden: Int = try row.decode(forColumn: "hidden")
            guard hidden != 1 else { return nil }
            return try ColumnInfo(tableInfoRow: row)
        }
        schemaCache.columns[key] = columns
        return columns
    }

    /// Whether `name` is a view (cached, as `primaryKey(_:in:)`; not recorded in a value
    /// observation's region).
    func isView(_ name: String) throws -> Bool {
        let key = name.lowercased()
        if let isView = schemaCache.isView[key] { return isView }
        let isView = try withoutRecordingReads {
            try Bool.fetchOne(self, sql: "SELECT type = 'view' FROM sqlite_master WHERE name = ? COLLATE NOCASE", arguments: [name]) == true
        }
        schemaCache.isView[key] = isView
        return isView
    }

    /// Whether `table` exists, temporary tables included. Ripple's own tables (the commit
    /// log, see ``Configuration/logsChangedTables``) do not count.
    ///
    /// - parameter table: A table name.
    /// - parameter schemaName: The schema to look in; when nil, any schema. Throws when
    ///   there is no such schema.
    public func tableExists(_ table: String, in schemaName: String? = nil) throws -> Bool {
        guard !RippleTables.isHidden(table) else { return false }
        return try schemaObjectExists(type: "table", name: table, in: schemaName)
    }

    /// The primary key of `table`. Throws when there is no such table, and for a view,
    /// unless the configuration's `schemaSource` tells its primary key.
    ///
    /// - parameter table: A table name.
    /// - parameter schemaName: The schema to look in; when nil, the first schema that has
    ///   the table, in SQLite's order. Throws when there is no such schema.
    public func primaryKey(_ table: String, in schemaName: String? = nil) throws -> PrimaryKeyInfo {
        let key = try schemaCacheKey(table, in: schemaName)
        if let info = schemaCache.primaryKeys[key] { return info }
        return try withoutRecordingReads { try readPrimaryKey(table, in: schemaName, key: key) }
    }

    private func readPrimaryKey(_ table: String, in schemaName: String?, key: String) throws -> PrimaryKeyInfo {
        if try schemaObjectExists(type: "view", name: table, in: schemaName) {
            // As GRDB: a view has a key when the configuration's schema source tells one
            // (no source, nil, or no column: none); it has no rowid.
            guard let source = schemaSource,
                let columns = try source.columnsForPrimaryKey(self, inView: DatabaseObjectID(name: table, schemaID: schemaID(schemaName))),
                !columns.isEmpty
            else {
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "database view \(table) has no primary key")
            }
            let viewColumns = try self.columns(in: table, in: schemaName)
            let columnInfos = try columns.map { name in
                guard let info = viewColumns.first(where: { $0.name.lowercased() == name.lowercased() }) else {
                    throw DatabaseError(
                        resultCode: .SQLITE_ERROR,
                        message: "the schema source of the configuration tells a primary key column \(name) that view \(table) does not have")
                }
                return info
            }
            let info = PrimaryKeyInfo(columns: columnInfos.map(\.name), rowIDName: nil, isWithoutRowID: true, columnInfos: columnInfos)
            schemaCache.primaryKeys[key] = info
            return info
        }
        let prefix = try schemaPrefix(schemaName)
        let rows = try Row.fetchAll(self, sql: "PRAGMA \(prefix)table_info(\(table.quotedDatabaseIdentifier))")
        guard !rows.isEmpty else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(table)")
        }
        var pkColumns: [ColumnInfo] = []
        for row in rows where try row.decode(Int.self, forColumn: "pk") > 0 {
            pkColumns.append(try ColumnInfo(tableInfoRow: row))
        }
        pkColumns.sort { $0.primaryKeyIndex < $1.primaryKeyIndex }
        let listPrefix = (schemaName ?? "main").quotedDatabaseIdentifier + "."
        let isWithoutRowID =
            try Row.fetchOne(self, sql: "PRAGMA \(listPrefix)table_list(\(table.sqlStringLiteral))")
            .map { try $0.decode(Bool.self, forColumn: "wr") } ?? false
        let info: PrimaryKeyInfo
        if pkColumns.isEmpty {
            info = PrimaryKeyInfo(columns: ["rowid"], rowIDName: "rowid", isWithoutRowID: false)
        } else if !isWithoutRowID, pkColumns.count == 1, pkColumns[0].type.uppercased() == "INTEGER" {
            info = PrimaryKeyInfo(columns: [pkColumns[0].name], rowIDName: pkColumns[0].name, isWithoutRowID: false, columnInfos: pkColumns)
        } else {
            info = PrimaryKeyInfo(columns: pkColumns.map(\.name), rowIDName: nil, isWithoutRowID: isWithoutRowID, columnInfos: pkColumns)
        }
        schemaCache.primaryKeys[key] = info
        return info
    }
}

extension String {
    /// The string as an SQL identifier, double-quoted: `"player"`, `"my ""table"""`.
    public var quotedDatabaseIdentifier: String {
        sqlQuoted(by: UInt8(ascii: "\""))
    }

    /// The string between two `quote` characters, each `quote` inside doubled: an SQL
    /// identifier (`"`) or string literal (`'`). (Without Foundation's
    /// `replacingOccurrences`, costly for each identifier of a query interface request
    /// (measured: Benchmarks/README.md, "Shortcuts").)
    func sqlQuoted(by quote: UInt8) -> String {
        var result = [UInt8]()
        result.reserveCapacity(utf8.count + 2)
        result.append(quote)
        for byte in utf8 {
            result.append(byte)
            if byte == quote { result.append(quote) }
        }
        result.append(quote)
        // (The bytes are the string's UTF-8 with ASCII bytes added: valid UTF-8.)
        return String(decoding: result, as: UTF8.self)
    }
}

/// The tables Ripple may keep in a database for itself, when asked (the commit log that
/// tells other processes which tables a transaction changed, see
/// ``Configuration/logsChangedTables``): the application never sees them in
/// introspection, regions, or migrations' schema comparisons.
enum RippleTables {
    static let commitLog = "_ripple_commit_log"
    /// The subscriptions of earlier versions of Ripple: a database that has it keeps
    /// working, and it stays hidden (Ripple neither writes nor drops it).
    static let commitSubscriber = "_ripple_commit_subscriber"

    /// Whether `name` is one of them (case-insensitively, as SQLite compares names).
    static func isHidden(_ name: String) -> Bool {
        let lowercased = name.lowercased()
        return lowercased == commitLog || lowercased == commitSubscriber
    }

    /// Whether `name` starts with `_ripple_` (case-insensitively), the prefix of all of
    /// them, those of other versions of Ripple included.
    static func hasReservedName(_ name: String) -> Bool {
        name.lowercased().hasPrefix("_ripple_")
    }

    /// An SQL condition on `sqlite_master` that leaves them out (with their indexes).
    static let excludedFromSchemaSQL = "tbl_name NOT IN ('\(commitLog)', '\(commitSubscriber)')"
}
