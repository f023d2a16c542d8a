/// A cursor of the statements of an SQL string, compiled one at a time: each is compiled
/// when the previous one was handed out (and maybe run), so that a statement may read the
/// table an earlier one created.
///
/// ```swift
/// let statements = try db.allStatements(sql: """
///     CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT);
///     INSERT INTO player (name) VALUES (?);
///     SELECT COUNT(*) FROM player;
///     """, arguments: ["Arthur"])
/// while let statement = try statements.next() {
///     try statement.execute()
/// }
/// ```
///
/// With arguments, positional ones are consumed by the statements in order (named ones
/// are shared), and the cursor throws at its end when some were not used; without, the
/// statements are handed out without arguments, for `execute(arguments:)`.
public final class SQLStatementCursor: Cursor {
    private let database: Database
    private let sql: String
    private let cString: ContiguousArray<CChar>
    private let arguments: StatementArguments?
    /// Where the next statement starts in `cString`.
    private var offset = 0
    /// The next positional argument.
    private var position = 0
    private var isDone = false

    init(database: Database, sql: String, arguments: StatementArguments?) {
        self.database = database
        self.sql = sql
        self.cString = sql.utf8CString
        self.arguments = arguments
    }

    public func next() throws -> Statement? {
        if isDone { return nil }
        try database.checkOpen()
        let statement = try cString.withUnsafeBufferPointer { buffer in
            try database.compileStatement(in: buffer, from: &offset, arguments: arguments)
        }
        guard let statement else {
            isDone = true
            if let arguments, position != arguments.positional.count {
                throw DatabaseError.wrongArgumentCount(given: arguments.positional.count, expected: position, sql: sql, arguments: arguments)
            }
            return nil
        }
        if let arguments {
            do {
                try statement.bind(arguments, consumingFrom: &position)
            } catch {
                isDone = true
                throw error
            }
        }
        return statement
    }
}

extension Database {
    /// The statements of `sql`, compiled one at a time (see ``SQLStatementCursor``).
    ///
    /// - parameters:
    ///     - sql: One or several SQL statements, separated by semicolons.
    ///     - arguments: The arguments of all statements, consumed in order; nil to hand
    ///       the statements out without arguments.
    public func allStatements(sql: String, arguments: StatementArguments? = nil) throws -> SQLStatementCursor {
        SQLStatementCursor(database: self, sql: sql, arguments: arguments)
    }

    /// The statements of an SQL literal, whose interpolated values are their arguments
    /// (see ``SQLStatementCursor``).
    public func allStatements(literal sqlLiteral: SQL) throws -> SQLStatementCursor {
        SQLStatementCursor(
            database: self, sql: sqlLiteral.sql, arguments: sqlLiteral.arguments.isEmpty ? nil : sqlLiteral.arguments)
    }
}
