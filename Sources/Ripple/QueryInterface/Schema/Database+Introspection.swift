/// An index of a table, as the schema defines it.
public struct IndexInfo: Hashable, Sendable {
    /// The index name.
    public let name: String
    /// The indexed columns, in order (expressions are left out).
    public let columns: [String]
    /// Whether the index is unique.
    public let isUnique: Bool
    /// How the index was made.
    public let origin: Origin

    /// How an index was made, as `PRAGMA index_list` tells it.
    public struct Origin: RawRepresentable, Hashable, Sendable, DatabaseValueConvertible {
        /// `"c"`, `"u"` or `"pk"`.
        public var rawValue: String

        /// An origin from its raw value.
        ///
        /// - parameter rawValue: `"c"`, `"u"` or `"pk"`.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// An index made by `CREATE INDEX`.
        public static let createIndex = Origin(rawValue: "c")

        /// An index made by a `UNIQUE` constraint.
        public static let uniqueConstraint = Origin(rawValue: "u")

        /// An index made by a `PRIMARY KEY` constraint.
        public static let primaryKeyConstraint = Origin(rawValue: "pk")
    }
}

/// A foreign key of a table, as the schema defines it.
public struct ForeignKeyInfo: Hashable, Sendable {
    /// SQLite's identifier of the foreign key in its table.
    public let id: Int
    /// The referenced table.
    public let destinationTable: String
    /// The pairs of origin and destination columns, in order (the destination is the
    /// primary key of the destination table when the schema names none).
    public let mapping: [(origin: String, destination: String)]

    public var originColumns: [String] { mapping.map(\.origin) }
    public var destinationColumns: [String] { mapping.map(\.destination) }

    public static func == (lhs: ForeignKeyInfo, rhs: ForeignKeyInfo) -> Bool {
        lhs.id == rhs.id && lhs.destinationTable == rhs.destinationTable
            && lhs.originColumns == rhs.originColumns && lhs.destinationColumns == rhs.destinationColumns
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(destinationTable)
        hasher.combine(originColumns)
        hasher.combine(destinationColumns)
    }
}

extension Database {
    /// Whether the view exists.
    ///
    /// - parameter name: A view name.
    /// - parameter schemaName: The schema to look in; when nil, any schema. Throws when
    ///   there is no such schema.
    public func viewExists(_ name: String, in schemaName: String? = nil) throws -> Bool {
        try schemaObjectExists(type: "view", name: name, in: schemaName)
    }

    /// Whether the trigger exists.
    ///
    /// - parameter name: A trigger name.
    /// - parameter schemaName: The schema to look in; when nil, any schema. Throws when
    ///   there is no such schema.
    public func triggerExists(_ name: String, in schemaName: String? = nil) throws -> Bool {
        try schemaObjectExists(type: "trigger", name: name, in: schemaName)
    }

    /// The indexes of a table. Throws when there is no such table. Indexes on expressions
    /// are left out.
    ///
    /// - parameter table: A table name.
    /// - parameter schemaName: The schema to look in; when nil, the first schema that has
    ///   the table, in SQLite's order. Throws when there is no such schema.
    public func indexes(on table: String, in schemaName: String? = nil) throws -> [IndexInfo] {
        guard try tableExists(table, in: schemaName) else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(table)")
        }
        // (The schema argument of a pragma function: NULL lets SQLite resolve the name.)
        let indexRows = try Row.fetchAll(
            self, sql: "SELECT name, \"unique\", origin FROM pragma_index_list(?, ?) ORDER BY seq", arguments: [table, schemaName])
        return try indexRows.compactMap { row in
            let name: String = try row.decode(forColumn: "name")
            let columns = try String?.fetchAll(self, sql: "SELECT name FROM pragma_index_info(?, ?) ORDER BY seqno", arguments: [name, schemaName])
            // (A NULL name is an expression or the rowid: such an index is not described.)
            guard !columns.contains(nil) else { return nil }
            return IndexInfo(
                name: name, columns: columns.compactMap { $0 }, isUnique: try row.decode(forColumn: "unique"),
                origin: try row.decode(forColumn: "origin"))
        }
    }

    /// Whether `columns` hold a unique key of the table: its primary key (the rowid too,
    /// for a table that has one) or the columns of a unique index, in any order, with
    /// maybe other columns. False for a view whose primary key the configuration's
    /// `schemaSource` does not tell.
    ///
    /// - parameter table: A table or view name.
    /// - parameter columns: Column names, compared without regard to case.
    public func table(_ table: String, hasUniqueKey columns: some Collection<String>) throws -> Bool {
        try uniqueKey(of: table, coveredBy: columns) != nil
    }

    /// The columns that find a row of the table fastest: the rowid (by the name of the
    /// column that aliases it, if any), or the primary key of a WITHOUT ROWID table.
    func fastPrimaryKeyColumns(_ table: String) throws -> [String] {
        let primaryKey = try primaryKey(table)
        if let rowIDColumn = primaryKey.rowIDName { return [rowIDColumn] }
        // A view has no rowid: the key that the configuration's schema source tells.
        return try primaryKey.tableHasRowID && !isView(table) ? ["rowid"] : primaryKey.columns
    }

    /// The lowercased columns of a unique key of the table that `columns` hold (see
    /// ``table(_:hasUniqueKey:)``), in the order of the key; nil when they hold none.
    /// Throws when there is no such table. From the keys cached with the schema.
    func uniqueKey(of table: String, coveredBy columns: some Collection<String>) throws -> [String]? {
        let given = Set(columns.map { $0.lowercased() })
        let keys: [[String]]
        if try isView(table) {
            guard schemaSource != nil else { return nil }
            keys = [try primaryKey(table).columns.map { $0.lowercased() }]
        } else {
            _ = try primaryKey(table)  // (no such table: an error)
            keys = try uniqueKeys(of: table)
        }
        return keys.first { !$0.isEmpty && given.isSuperset(of: $0) }
    }

    /// The foreign keys of a table. Throws when there is no such table.
    ///
    /// - parameter table: A table name.
    /// - parameter schemaName: The schema to look in; when nil, the first schema that has
    ///   the table, in SQLite's order. Throws when there is no such schema.
    public func foreignKeys(on table: String, in schemaName: String? = nil) throws -> [ForeignKeyInfo] {
        let key = try schemaCacheKey(table, in: schemaName)
        if let keys = schemaCache.foreignKeys[key] { return keys }
        let keys = try withoutRecordingReads { try readForeignKeys(on: table, in: schemaName) }
        schemaCache.foreignKeys[key] = keys
        return keys
    }

    private func readForeignKeys(on table: String, in schemaName: String?) throws -> [ForeignKeyInfo] {
        guard try tableExists(table, in: schemaName) else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(table)")
        }
        // (`PRAGMA` as GRDB runs it; the pragma lists a table's keys from the last declared.)
        let prefix = try schemaPrefix(schemaName)
        let rows = try Row.fetchAll(self, sql: "PRAGMA \(prefix)foreign_key_list(\(table.sqlStringLiteral))").map { row in
            (
                id: try row.decode(Int.self, forColumn: "id"), seq: try row.decode(Int.self, forColumn: "seq"),
                table: try row.decode(String.self, forColumn: "table"), from: try row.decode(String.self, forColumn: "from"),
                to: try row.decodeIfPresent(String.self, forColumn: "to")
            )
        }.sorted { ($0.id, $0.seq) < ($1.id, $1.seq) }
        var keys: [ForeignKeyInfo] = []
        var current: (id: Int, table: String, mapping: [(String, String?)])?
        func flush() throws {
            guard let key = current else { return }
            let missing = key.mapping.contains { $0.1 == nil }
            let primaryKey = missing ? try primaryKey(key.table, in: schemaName).columns : []
            let mapping = key.mapping.enumerated().map { index, pair in (origin: pair.0, destination: pair.1 ?? primaryKey[index]) }
            keys.append(ForeignKeyInfo(id: key.id, destinationTable: key.table, mapping: mapping))
        }
        for row in rows {
            if current?.id != row.id {
                try flush()
                current = (row.id, row.table, [])
            }
            current?.mapping.append((row.from, row.to))
        }
        try flush()
        return keys
    }
}
