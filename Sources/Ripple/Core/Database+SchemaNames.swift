// Schema names in introspection (`db.columns(in: "player", in: "archive")`): an explicit
// schema must exist, and its facts are cached apart from those of unqualified names.

extension Database {
    /// `"schema".` for an explicit schema, checked to exist; empty for nil, so that SQLite
    /// resolves the name in its own order (temp, main, then attached databases).
    func schemaPrefix(_ schemaName: String?) throws -> String {
        guard let schemaName else { return "" }
        // (`temp` exists even before a temporary object does, when pragma_database_list
        // does not list it yet.)
        if ["main", "temp"].contains(schemaName.lowercased()) { return schemaName.quotedDatabaseIdentifier + "." }
        let names = try withoutRecordingReads { try schemaNames() }
        guard names.contains(where: { $0.lowercased() == schemaName.lowercased() }) else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such schema: \(schemaName)")
        }
        return schemaName.quotedDatabaseIdentifier + "."
    }

    /// The names of the schemas (main, temp once it exists, and attached databases).
    /// Introspection runs `PRAGMA` statements, as GRDB's does, so that an application that
    /// filters its trace for its own `SELECT` statements does not see them.
    func schemaNames() throws -> [String] {
        // (Not a cached statement: SQLite compiles this pragma again at each run, and a
        // cached statement compiled again tells of a schema change, which would drop the
        // schema cache at each introspection.)
        let statement = try makeStatement(sql: "PRAGMA database_list")
        return try Row.fetchAll(statement).map { try $0.decode(String.self, forColumn: "name") }
    }

    /// The key of `table` in the schema cache: its lowercased name, qualified by the
    /// lowercased schema name when there is one.
    func schemaCacheKey(_ table: String, in schemaName: String?) throws -> String {
        guard let schemaName else { return table.lowercased() }
        return "\(schemaName.lowercased()).\(table.lowercased())"
    }

    /// The identifier of `schemaName`, `main` for nil.
    func schemaID(_ schemaName: String?) -> DatabaseSchemaID {
        switch schemaName?.lowercased() {
        case nil, "main": return .main
        case "temp": return .temp
        case let name?: return .attached(name)
        }
    }

    /// Whether a schema object of `type` (`table`, `view`, `trigger`) has this name, in
    /// `schemaName` or, for nil, in the main or temp schema or an attached database.
    func schemaObjectExists(type: String, name: String, in schemaName: String?) throws -> Bool {
        try withoutRecordingReads {
            let prefixes =
                try schemaName != nil
                ? [schemaPrefix(schemaName)]
                : schemaNames().map { $0.quotedDatabaseIdentifier + "." }
            for prefix in prefixes {
                let sql = "SELECT EXISTS (SELECT 1 FROM \(prefix)sqlite_master WHERE type = ? AND name = ? COLLATE NOCASE)"
                if try Bool.fetchOne(self, sql: sql, arguments: [type, name]) == true { return true }
            }
            return false
        }
    }
}
