/// An index of a table, as the schema defines it.
public struct IndexInfo: Hashable, Sendable {
    /// The index name.
    public let name: String
    /// The indexed columns, in order (expressions are left out).
    public let columns: [String]
    /// Whether the index is unique.
    public let isUnique: Bool
    /// How the index was made: `"c"` by `CREATE INDEX`, `"u"` by a `UNIQUE` constraint,
    /// `"pk"` by a `PRIMARY KEY` constraint.
    public let origin: String
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
    public func viewExists(_ name: String) throws -> Bool {
        try schemaObjectExists(type: "view", name: name)
    }

    /// Whether the trigger exists.
    public func triggerExists(_ name: String) throws -> Bool {
        try schemaObjectExists(type: "trigger", name: name)
    }

    private func schemaObjectExists(type: String, name: String) throws -> Bool {
        try Bool.fetchOne(self, sql: """
            SELECT EXISTS (
              SELECT 1 FROM sqlite_master WHERE type = ?1 AND name = ?2 COLLATE NOCASE
              UNION ALL SELECT 1 FROM sqlite_temp_master WHERE type = ?1 AND name = ?2 COLLATE NOCASE)
            """, arguments: [type, name]) ?? false
    }

    /// The indexes of a table. Throws when there is no such table.
    public func indexes(on table: String) throws -> [IndexInfo] {
        guard try tableExists(table) else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(table)")
        }
        return try Row.fetchAll(self, sql: "SELECT name, \"unique\", origin FROM pragma_index_list(?) ORDER BY seq", arguments: [table]).map { row in
            let name: String = try row.decode(forColumn: "name")
            let columns = try String.fetchAll(self, sql: "SELECT name FROM pragma_index_info(?) WHERE name IS NOT NULL ORDER BY seqno", arguments: [name])
            return IndexInfo(name: name, columns: columns, isUnique: try row.decode(forColumn: "unique"), origin: try row.decode(forColumn: "origin"))
        }
    }

    /// The foreign keys of a table. Throws when there is no such table.
    public func foreignKeys(on table: String) throws -> [ForeignKeyInfo] {
        guard try tableExists(table) else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(table)")
        }
        let rows = try Row.fetchAll(self, sql: "SELECT id, seq, \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?) ORDER BY id, seq", arguments: [table])
        var keys: [ForeignKeyInfo] = []
        var current: (id: Int, table: String, mapping: [(String, String?)])?
        func flush() throws {
            guard let key = current else { return }
            let missing = key.mapping.contains { $0.1 == nil }
            let primaryKey = missing ? try primaryKey(key.table).columns : []
            let mapping = key.mapping.enumerated().map { index, pair in (origin: pair.0, destination: pair.1 ?? primaryKey[index]) }
            keys.append(ForeignKeyInfo(id: key.id, destinationTable: key.table, mapping: mapping))
        }
        for row in rows {
            let id: Int = try row.decode(forColumn: "id")
            if current?.id != id {
                try flush()
                current = (id, try row.decode(forColumn: "table"), [])
            }
            current?.mapping.append((try row.decode(String.self, forColumn: "from"), try row.decodeIfPresent(String.self, forColumn: "to")))
        }
        try flush()
        return keys
    }
}
