extension Database {
    /// Throws a ``DatabaseError`` (`SQLITE_CONSTRAINT_FOREIGNKEY`) that describes the first
    /// foreign key violation of the database, if there is one.
    ///
    /// ```swift
    /// // SQLite error 19: FOREIGN KEY constraint violation - from book(authorId) to author(id),
    /// // in book rowid 1
    /// try db.checkForeignKeys()
    /// ```
    public func checkForeignKeys() throws {
        try checkForeignKeys(pragma: "PRAGMA foreign_key_check")
    }

    /// Throws a ``DatabaseError`` (`SQLITE_CONSTRAINT_FOREIGNKEY`) that describes the first
    /// foreign key violation of a table, if there is one.
    public func checkForeignKeys(in tableName: String, in schemaName: String? = nil) throws {
        let schema = schemaName.map { $0.quotedDatabaseIdentifier + "." } ?? ""
        try checkForeignKeys(pragma: "PRAGMA \(schema)foreign_key_check(\(tableName.quotedDatabaseIdentifier))")
    }

    private func checkForeignKeys(pragma: String) throws {
        guard let violation = try Row.fetchOne(self, sql: pragma) else { return }
        let table: String = try violation.decode(atIndex: 0)
        let rowID: Int64? = try violation.decodeIfPresent(Int64.self, atIndex: 1)
        let parent: String = try violation.decode(atIndex: 2)
        let foreignKeyID: Int = try violation.decode(atIndex: 3)
        let mapping = try Row.fetchAll(self, sql: "SELECT \"from\", \"to\" FROM pragma_foreign_key_list(?) WHERE id = ?", arguments: [table, foreignKeyID])
        let from = try mapping.map { row -> String in try row.decode(forColumn: "from") }.joined(separator: ", ")
        let to = try mapping.map { row -> String? in try row.decodeIfPresent(String.self, forColumn: "to") }.map { $0 ?? "rowid" }.joined(separator: ", ")
        let location = rowID.map { "\(table) rowid \($0)" } ?? table
        throw DatabaseError(
            resultCode: .SQLITE_CONSTRAINT_FOREIGNKEY,
            message: "FOREIGN KEY constraint violation - from \(table)(\(from)) to \(parent)(\(to)), in \(location)",
            sql: pragma)
    }
}
