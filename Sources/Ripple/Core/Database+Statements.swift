import CSQLite

extension Database {
    /// Compiles a single statement from an SQL literal, or returns the one compiled
    /// earlier for the same SQL, with the literal's arguments bound (if it has any: a
    /// literal without arguments leaves the parameters to `execute(arguments:)`).
    ///
    /// - parameter sqlLiteral: An SQL literal, with its interpolated arguments.
    public func cachedStatement(literal sqlLiteral: SQL) throws -> Statement {
        let statement = try cachedStatement(sql: sqlLiteral.sql)
        if !sqlLiteral.arguments.isEmpty { try statement.setArguments(sqlLiteral.arguments) }
        return statement
    }

    /// The largest number of arguments a statement can take (SQLite's
    /// `SQLITE_LIMIT_VARIABLE_NUMBER`).
    public var maximumStatementArgumentCount: Int {
        Int(sqlite3_limit(sqliteConnection, SQLITE_LIMIT_VARIABLE_NUMBER, -1))
    }
}
