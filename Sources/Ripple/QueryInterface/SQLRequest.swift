/// A request written in SQL.
///
/// ```swift
/// let request = SQLRequest<Player>("SELECT * FROM player WHERE name = \(name)")
/// let players = try request.fetchAll(db)
///
/// let maxScore = try SQLRequest<Int>("SELECT MAX(score) FROM player")
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
    /// How fetched rows are presented (see ``RowAdapter``), if at all.
    public let adapter: (any RowAdapter)?
    /// Whether the statement goes through the connection's statement cache.
    let cached: Bool

    /// A request from SQL and arguments. With `cached`, the statement is kept in the
    /// connection's statement cache (Ripple keeps every request statement there anyway).
    public init(
        sql: String, arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil, cached: Bool = false,
        as type: RowDecoder.Type = RowDecoder.self
    ) {
        self.sql = sql
        self.arguments = arguments
        self.adapter = adapter
        self.cached = cached
    }

    /// A request from SQL with interpolated arguments.
    public init(_ literal: SQL, adapter: (any RowAdapter)? = nil, cached: Bool = false, as type: RowDecoder.Type = RowDecoder.self) {
        self.init(sql: literal.sql, arguments: literal.arguments, adapter: adapter, cached: cached)
    }

    /// A request from SQL with interpolated arguments.
    public init(literal: SQL, adapter: (any RowAdapter)? = nil, cached: Bool = false, as type: RowDecoder.Type = RowDecoder.self) {
        self.init(sql: literal.sql, arguments: literal.arguments, adapter: adapter, cached: cached)
    }

    public func makePreparedRequest(_ db: Database, forSingleResult: Bool) throws -> PreparedRequest {
        let statement = try db.cachedStatement(sql: sql)
        // The statement carries its arguments, as in GRDB, for code that runs it directly.
        try statement.setArguments(arguments)
        return PreparedRequest(statement: statement, arguments: arguments, adapter: adapter)
    }
}

extension SQLRequest: ExpressibleByStringLiteral, ExpressibleByUnicodeScalarLiteral, ExpressibleByExtendedGraphemeClusterLiteral {
    /// A request from an SQL string: `let request: SQLRequest<Player> = "SELECT * FROM player"`.
    public init(stringLiteral value: String) {
        self.init(sql: value)
    }
}

extension SQLRequest: ExpressibleByStringInterpolation {
    /// A request from SQL with interpolated arguments:
    /// `let request: SQLRequest<Player> = "SELECT * FROM player WHERE id = \(id)"`.
    public init(stringInterpolation: SQL.StringInterpolation) {
        self.init(SQL(stringInterpolation: stringInterpolation))
    }
}

extension SQLRequest where RowDecoder == Row {
    /// A request of rows from SQL with interpolated arguments: `SQLRequest<Row>("SELECT ...")`.
    public init(_ literal: SQL, adapter: (any RowAdapter)? = nil, cached: Bool = false) {
        self.init(sql: literal.sql, arguments: literal.arguments, adapter: adapter, cached: cached, as: Row.self)
    }

    /// A request of rows from SQL with interpolated arguments: `SQLRequest(literal: query)`.
    ///
    /// - Parameters:
    ///   - sqlLiteral: The SQL and its arguments.
    ///   - adapter: How fetched rows are presented, if at all.
    ///   - cached: Whether the statement goes through the statement cache.
    public init(literal sqlLiteral: SQL, adapter: (any RowAdapter)? = nil, cached: Bool = false) {
        self.init(sql: sqlLiteral.sql, arguments: sqlLiteral.arguments, adapter: adapter, cached: cached, as: Row.self)
    }

    /// A request of rows from SQL and arguments.
    public init(sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil, cached: Bool = false) {
        self.init(sql: sql, arguments: arguments, adapter: adapter, cached: cached, as: Row.self)
    }
}
