import CSQLite

/// The statements a connection compiled to run many times: by SQL for
/// ``Database/cachedStatement(sql:)``, and by key for those Ripple runs often itself.
struct StatementCache {
    /// What the cache holds for some SQL.
    enum Lookup {
        case found(Statement)
        /// The cached statement still steps (an open cursor): a fresh one serves.
        case stepping
        case missing
    }

    private var statements: [String: Statement] = [:]
    /// The last statement found, found again without hashing its SQL when the same SQL
    /// comes next (the loop of a bulk import).
    private var last: (sql: String, statement: Statement)?
    private var internalStatements: [Statement?] = Array(repeating: nil, count: InternalStatement.allCases.count)

    mutating func lookUp(_ sql: String) -> Lookup {
        if let last, last.sql == sql, sqlite3_stmt_busy(last.statement.sqliteStatement) == 0 {
            return .found(last.statement)
        }
        guard let statement = statements[sql] else { return .missing }
        guard sqlite3_stmt_busy(statement.sqliteStatement) == 0 else { return .stepping }
        last = (sql, statement)
        return .found(statement)
    }

    mutating func insert(_ statement: Statement, sql: String) {
        statements[sql] = statement
        last = (sql, statement)
    }

    subscript(key: InternalStatement) -> Statement? {
        get { internalStatements[key.rawValue] }
        set { internalStatements[key.rawValue] = newValue }
    }

    /// Forgets the statements cached by SQL.
    mutating func removeCachedStatements() {
        statements.removeAll()
        last = nil
    }

    /// Forgets the statements Ripple runs itself.
    mutating func removeInternalStatements() {
        internalStatements = internalStatements.map { _ in nil }
    }

    /// The statements Ripple runs often itself, compiled once, found without hashing SQL.
    enum InternalStatement: Int, CaseIterable {
        case beginDeferred, beginImmediate, beginExclusive, commit, rollback
        case savepoint, releaseSavepoint, rollbackToSavepoint

        var sql: String {
            switch self {
            case .beginDeferred: return "BEGIN DEFERRED TRANSACTION"
            case .beginImmediate: return "BEGIN IMMEDIATE TRANSACTION"
            case .beginExclusive: return "BEGIN EXCLUSIVE TRANSACTION"
            case .commit: return "COMMIT TRANSACTION"
            case .rollback: return "ROLLBACK TRANSACTION"
            case .savepoint: return "SAVEPOINT ripple"
            case .releaseSavepoint: return "RELEASE SAVEPOINT ripple"
            case .rollbackToSavepoint: return "ROLLBACK TRANSACTION TO SAVEPOINT ripple"
            }
        }
    }
}

extension Database {
    /// Compiles a single statement, or returns the one compiled earlier for the same SQL.
    /// Best for statements run many times.
    public func cachedStatement(sql: String) throws -> Statement {
        // (Through `state` directly: a `_read` accessor called out of line allocates its frame.)
        switch state.value.statementCache.lookUp(sql) {
        case .found(let statement):
            return statement
        case .stepping:
            return try prepareStatement(sql: sql, persistent: false)
        case .missing:
            let statement = try prepareStatement(sql: sql, persistent: true)
            state.value.statementCache.insert(statement, sql: sql)
            return statement
        }
    }

    func internalStatement(_ key: StatementCache.InternalStatement) throws -> Statement {
        if let statement = state.value.statementCache[key] { return statement }
        return try prepareInternalStatement(key)
    }

    // (Out of line: the lookup stays small enough to inline in `BEGIN` and `COMMIT`, W5c.)
    @inline(never)
    private func prepareInternalStatement(_ key: StatementCache.InternalStatement) throws -> Statement {
        let statement = try prepareStatement(sql: key.sql, persistent: true)
        state.value.statementCache[key] = statement
        return statement
    }
}
