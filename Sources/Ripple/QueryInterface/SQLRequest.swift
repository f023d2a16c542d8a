/// A request written in SQL.
///
/// ```swift
/// let request = SQLRequest<Player>("SELECT * FROM player WHERE name = \(name)")
/// let players = try request.fetchAll(db)
///
/// let maxScore = try SQLRequest("SELECT MAX(score) FROM player")
///     .asRequest(of: Int.self)
///     .fetchOne(db)
/// ```
///
/// Interpolated values are bound as arguments (see ``SQL``). The region of the request
/// comes from SQLite when it compiles the statement, so views, joins and subqueries report
/// the tables and columns they really read.
public struct SQLRequest<RowDecoder>: FetchRequest, Sendable {
    /// The SQL.
    public let sql: String
    /// The arguments.
    public let arguments: StatementArguments

    /// A request from SQL and arguments.
    public init(sql: String, arguments: StatementArguments = StatementArguments(), as type: RowDecoder.Type = RowDecoder.self) {
        self.sql = sql
        self.arguments = arguments
    }

    /// A request from SQL with interpolated arguments.
    public init(_ literal: SQL, as type: RowDecoder.Type = RowDecoder.self) {
        self.init(sql: literal.sql, arguments: literal.arguments)
    }

    public func makePreparedRequest(_ db: Database, forSingleResult: Bool) throws -> PreparedRequest {
        PreparedRequest(statement: try db.cachedStatement(sql: sql), arguments: arguments)
    }
}

extension SQLRequest where RowDecoder == Row {
    /// A request of rows from SQL with interpolated arguments: `SQLRequest("SELECT ...")`.
    public init(_ literal: SQL) {
        self.init(sql: literal.sql, arguments: literal.arguments)
    }

    /// A request of rows from SQL and arguments.
    public init(sql: String, arguments: StatementArguments = StatementArguments()) {
        self.init(sql: sql, arguments: arguments, as: Row.self)
    }
}
