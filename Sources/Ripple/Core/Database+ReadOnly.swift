import CSQLite

/// Read-only accesses: writes forbidden for a while, without `PRAGMA query_only`.
extension Database {
    /// Whether writes are forbidden right now (read-only connection or read access).
    public var isReadOnly: Bool {
        configuration.readonly || readOnlyDepth > 0 || sqlite3_db_readonly(sqliteConnection, "main") == 1
    }

    /// Whether a read-only connection runs, or a read access (`readOnly(_:)`): the
    /// cheap part of ``isReadOnly``, checked for each statement.
    var isInReadOnlyAccess: Bool {
        configuration.readonly || readOnlyDepth > 0
    }

    /// Runs `block` with writes forbidden: a statement that would write (one that
    /// `sqlite3_stmt_readonly` does not call read-only) throws `SQLITE_READONLY` before it
    /// starts. Observers are never told of a read-only access (see
    /// `DatabaseObservationBroker.statementWillStart`).
    ///
    /// Not `PRAGMA query_only`: setting a flag pragma expires every prepared statement of
    /// the connection, so that each one would be compiled again after each read, and
    /// Ripple would read the schema again (W6one: a third of the time of a one-row
    /// transaction and the fetch that follows it).
    public func readOnly<T>(_ block: () throws -> T) throws -> T {
        if configuration.readonly { return try block() }
        readOnlyDepth += 1
        defer { readOnlyDepth -= 1 }
        return try block()
    }

    /// Throws `SQLITE_READONLY` if `statement` would write, in a read-only access.
    @inline(never)
    func checkReadOnly(_ statement: Statement) throws {
        guard sqlite3_stmt_readonly(statement.sqliteStatement) == 0 else { return }
        if Self.isJournalModeQuery(statement.sql) { return }
        throw DatabaseError(
            resultCode: .SQLITE_READONLY,
            message: "attempt to write a readonly database",
            sql: statement.sql, arguments: statement.arguments)
    }

    /// Whether `sql` is `PRAGMA [schema.]journal_mode` without a value: it only reads the
    /// mode, although SQLite does not call it read-only (given a value, it changes it).
    static func isJournalModeQuery(_ sql: String) -> Bool {
        let words = sql.lowercased().split(whereSeparator: { $0.isWhitespace || $0 == ";" })
        guard words.count == 2, words[0] == "pragma" else { return false }
        return words[1].split(separator: ".").last == "journal_mode"
    }
}
