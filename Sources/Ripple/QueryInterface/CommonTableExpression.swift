/// A common table expression: a named query that a request embeds in a `WITH` clause, and
/// reads as a table.
///
/// ```swift
/// let answer = CommonTableExpression(named: "answer", sql: "SELECT 42 AS value")
/// // WITH "answer" AS (SELECT 42 AS value) SELECT * FROM "answer"
/// let row = try answer.all().with(answer).fetchOne(db)
/// ```
///
/// `RowDecoder` is the type that `all()` fetches.
public struct CommonTableExpression<RowDecoder>: Sendable {
    /// The name of the table the expression defines.
    public var tableName: String
    let definition: CTEDefinition

    init(
        recursive: Bool, named tableName: String, columns: [String]?, query: SQLSubquery,
        makeSQL: @escaping @Sendable (Database) throws -> SQL
    ) {
        self.tableName = tableName
        definition = CTEDefinition(tableName: tableName, isRecursive: recursive, columns: columns, query: query, makeSQL: makeSQL)
    }

    init(recursive: Bool, named tableName: String, columns: [String]?, literal: SQL) {
        self.init(recursive: recursive, named: tableName, columns: columns, query: SQLSubquery(literal: literal)) { _ in literal }
    }

    /// A common table expression defined by raw SQL.
    ///
    /// - Parameters:
    ///   - recursive: Whether the expression refers to itself (`WITH RECURSIVE`).
    ///   - tableName: The name of the table the expression defines.
    ///   - columns: The names of its columns, when the query does not name them.
    ///   - sql: A `SELECT` statement.
    ///   - arguments: The values of its parameters.
    ///   - type: The type that `all()` fetches.
    public init(
        recursive: Bool = false, named tableName: String, columns: [String]? = nil,
        sql: String, arguments: StatementArguments = StatementArguments(),
        as type: RowDecoder.Type = RowDecoder.self
    ) {
        self.init(recursive: recursive, named: tableName, columns: columns, literal: SQL(sql: sql, arguments: arguments))
    }

    /// A common table expression defined by an SQL literal.
    ///
    /// - Parameters:
    ///   - recursive: Whether the expression refers to itself (`WITH RECURSIVE`).
    ///   - tableName: The name of the table the expression defines.
    ///   - columns: The names of its columns, when the query does not name them.
    ///   - sqlLiteral: A `SELECT` statement, with interpolated arguments.
    ///   - type: The type that `all()` fetches.
    public init(
        recursive: Bool = false, named tableName: String, columns: [String]? = nil,
        literal sqlLiteral: SQL, as type: RowDecoder.Type = RowDecoder.self
    ) {
        self.init(recursive: recursive, named: tableName, columns: columns, literal: sqlLiteral)
    }

    /// A common table expression defined by a raw SQL request.
    ///
    /// - Parameters:
    ///   - recursive: Whether the expression refers to itself (`WITH RECURSIVE`).
    ///   - tableName: The name of the table the expression defines.
    ///   - columns: The names of its columns, when the query does not name them.
    ///   - request: The request whose SQL defines the expression.
    ///   - type: The type that `all()` fetches.
    public init<T>(
        recursive: Bool = false, named tableName: String, columns: [String]? = nil,
        request: SQLRequest<T>, as type: RowDecoder.Type = RowDecoder.self
    ) {
        self.init(recursive: recursive, named: tableName, columns: columns, literal: SQL(sql: request.sql, arguments: request.arguments))
    }

    /// A common table expression defined by a query interface request.
    ///
    /// - Parameters:
    ///   - recursive: Whether the expression refers to itself (`WITH RECURSIVE`).
    ///   - tableName: The name of the table the expression defines.
    ///   - columns: The names of its columns, when the query does not name them.
    ///   - request: The request whose SQL defines the expression.
    ///   - type: The type that `all()` fetches.
    public init<T>(
        recursive: Bool = false, named tableName: String, columns: [String]? = nil,
        request: QueryInterfaceRequest<T>, as type: RowDecoder.Type = RowDecoder.self
    ) {
        self.init(recursive: recursive, named: tableName, columns: columns, query: request.sqlSubquery) { db in try request.makeSQL(db) }
    }

    /// A request of all rows of the expression: `SELECT * FROM "cte"`. Embed the
    /// expression with `with(_:)` before fetching.
    public func all() -> QueryInterfaceRequest<RowDecoder> {
        QueryInterfaceRequest(tableName: tableName)
    }

    /// `expression IN "cte"`: whether the expression's single column contains a value.
    ///
    /// - Parameter element: The tested value.
    public func contains(_ element: some SQLExpressible) -> SQLExpression {
        // The table name is an identifier operand of IN, written as a column is.
        infix("IN", element, SQLExpression(.column(tableName)))
    }
}

extension CommonTableExpression where RowDecoder == Row {
    /// A common table expression of rows, defined by raw SQL.
    ///
    /// - Parameters:
    ///   - recursive: Whether the expression refers to itself (`WITH RECURSIVE`).
    ///   - tableName: The name of the table the expression defines.
    ///   - columns: The names of its columns, when the query does not name them.
    ///   - sql: A `SELECT` statement.
    ///   - arguments: The values of its parameters.
    public init(
        recursive: Bool = false, named tableName: String, columns: [String]? = nil,
        sql: String, arguments: StatementArguments = StatementArguments()
    ) {
        self.init(recursive: recursive, named: tableName, columns: columns, sql: sql, arguments: arguments, as: Row.self)
    }

    /// A common table expression of rows, defined by an SQL literal.
    ///
    /// - Parameters:
    ///   - recursive: Whether the expression refers to itself (`WITH RECURSIVE`).
    ///   - tableName: The name of the table the expression defines.
    ///   - columns: The names of its columns, when the query does not name them.
    ///   - sqlLiteral: A `SELECT` statement, with interpolated arguments.
    public init(recursive: Bool = false, named tableName: String, columns: [String]? = nil, literal sqlLiteral: SQL) {
        self.init(recursive: recursive, named: tableName, columns: columns, literal: sqlLiteral, as: Row.self)
    }

    /// A common table expression of rows, defined by a raw SQL request.
    ///
    /// - Parameters:
    ///   - recursive: Whether the expression refers to itself (`WITH RECURSIVE`).
    ///   - tableName: The name of the table the expression defines.
    ///   - columns: The names of its columns, when the query does not name them.
    ///   - request: The request whose SQL defines the expression.
    public init<T>(recursive: Bool = false, named tableName: String, columns: [String]? = nil, request: SQLRequest<T>) {
        self.init(recursive: recursive, named: tableName, columns: columns, request: request, as: Row.self)
    }

    /// A common table expression of rows, defined by a query interface request.
    ///
    /// - Parameters:
    ///   - recursive: Whether the expression refers to itself (`WITH RECURSIVE`).
    ///   - tableName: The name of the table the expression defines.
    ///   - columns: The names of its columns, when the query does not name them.
    ///   - request: The request whose SQL defines the expression.
    public init<T>(recursive: Bool = false, named tableName: String, columns: [String]? = nil, request: QueryInterfaceRequest<T>) {
        self.init(recursive: recursive, named: tableName, columns: columns, request: request, as: Row.self)
    }
}

/// The definition of a common table expression, whatever it fetches: what a request's
/// `WITH` clause is made of.
struct CTEDefinition: Sendable {
    var tableName: String
    var isRecursive: Bool
    var columns: [String]?
    /// The query, for SQL literals, which are written without a connection (see
    /// `SQLGenerationContext.sql(of:)`).
    var query: SQLSubquery
    /// The SQL of the query; a query interface request needs the database to make it.
    var makeSQL: @Sendable (Database) throws -> SQL

    /// `"cte"("a", "b")`: the name and the columns.
    var head: String {
        var head = tableName.quotedDatabaseIdentifier
        if let columns, !columns.isEmpty {
            head += "(" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
        }
        return head
    }

    /// `WITH [RECURSIVE] "a"("x") AS (...), "b" AS (...) `, with a trailing space, its
    /// arguments bound in `context`; empty without definitions.
    static func withClause(_ definitions: [CTEDefinition], _ db: Database, _ context: inout SQLGenerationContext) throws -> String {
        guard !definitions.isEmpty else { return "" }
        var sql = definitions.contains(where: \.isRecursive) ? "WITH RECURSIVE " : "WITH "
        sql += try definitions.map { definition in
            let query = try definition.makeSQL(db)
            let fragment = SQLLiteralFragment(sql: query.sql, arguments: query.arguments)
            return definition.head + " AS (" + context.bind(sql: fragment.sql, values: fragment.values) + ")"
        }.joined(separator: ", ")
        return sql + " "
    }
}
