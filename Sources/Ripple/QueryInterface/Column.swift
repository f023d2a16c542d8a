/// A column of a table: `Column("score")`.
///
/// ```swift
/// let request = Player.filter(Column("score") > 1000).order(Column("name"))
/// ```
public struct Column: ColumnExpression, CustomStringConvertible {
    /// The column name.
    public let name: String

    /// The column named `name`.
    public init(_ name: String) {
        self.name = name
    }

    /// The column of a coding key: `Column(CodingKeys.name)`.
    public init(_ codingKey: some CodingKey) {
        self.name = codingKey.stringValue
    }

    /// The hidden `rowid` column.
    public static let rowID = Column("rowid")

    public var sqlExpression: SQLExpression { SQLExpression(.column(name)) }

    public var description: String { name }
}

/// A column, by name: ``Column``, or an enum of a record's columns.
///
/// ```swift
/// extension Player {
///     enum Columns: String, ColumnExpression { case id, name, score }
/// }
/// let best = try Player.order(Player.Columns.score.desc).fetchAll(db)
/// let name: String = row[Player.Columns.name]
/// ```
public protocol ColumnExpression: SQLSpecificExpressible {
    /// The column name.
    var name: String { get }
}

extension ColumnExpression {
    public var sqlExpression: SQLExpression { SQLExpression(.column(name)) }
}

extension ColumnExpression where Self: RawRepresentable, RawValue == String {
    /// The raw value, for an enum of columns.
    public var name: String { rawValue }
}

/// The ordering of a request: `score DESC`.
public struct SQLOrdering: Sendable, CustomStringConvertible {
    let expression: SQLExpression
    let isDescending: Bool
    /// `FIRST` or `LAST` (`NULLS FIRST`), when not SQLite's default for the direction.
    var nulls: String?
    /// Raw SQL that says its own direction, and its arguments (`order(sql:)`).
    var literal: (sql: String, arguments: [DatabaseValue])?
    var isLiteral: Bool { literal != nil }

    init(expression: SQLExpression, isDescending: Bool, nulls: String? = nil) {
        self.expression = expression
        self.isDescending = isDescending
        self.nulls = nulls
    }

    /// An ordering written in SQL: `"score DESC, name"`.
    init(literal sql: String, arguments: [DatabaseValue]) {
        expression = SQLExpression(.literal(sql, arguments))
        isDescending = false
        literal = (sql, arguments)
    }

    var reversed: SQLOrdering {
        guard !isLiteral else {
            fatalError("A request ordered with order(sql:) can not be reversed: order it with columns or expressions, as order(Column(\"score\").desc).")
        }
        // (Reversed, NULLs go to the other end too.)
        return SQLOrdering(expression: expression, isDescending: !isDescending, nulls: nulls.map { $0 == "FIRST" ? "LAST" : "FIRST" })
    }

    func sql(_ context: inout SQLGenerationContext) -> String {
        if let literal {
            // Not parenthesized: the SQL may hold several terms and their directions.
            return context.bind(sql: literal.sql, values: literal.arguments)
        }
        return expression.sql(&context) + directionSQL
    }

    private var directionSQL: String { (isDescending ? " DESC" : " ASC") + (nulls.map { " NULLS " + $0 } ?? "") }

    public var description: String { expression.description + (isLiteral ? "" : directionSQL) }
}

/// A type that can order a request: columns, expressions (ascending), and orderings.
public protocol SQLOrderingTerm: Sendable {
    /// The ordering.
    var sqlOrdering: SQLOrdering { get }
}

extension SQLOrdering: SQLOrderingTerm {
    public var sqlOrdering: SQLOrdering { self }
}

extension Column: SQLOrderingTerm {
    public var sqlOrdering: SQLOrdering { asc }
}

extension SQLExpression: SQLOrderingTerm {
    public var sqlOrdering: SQLOrdering { asc }
}

/// What a request selects: all columns, or expressions.
public struct SQLSelection: Sendable {
    enum Kind: Sendable {
        case allColumns
        case expression(SQLExpression)
        case aliased(SQLExpression, String)
    }

    let kind: Kind

    init(_ kind: Kind) {
        self.kind = kind
    }

    /// `*`
    public static let allColumns = SQLSelection(.allColumns)

    func sql(_ context: inout SQLGenerationContext) -> String {
        switch kind {
        case .allColumns: return "*"
        case .expression(let expression): return expression.sql(&context)
        case let .aliased(expression, name): return expression.sql(&context) + " AS " + name.quotedDatabaseIdentifier
        }
    }
}

/// A type that can be selected: columns, expressions, values and `SQLSelection`s.
public protocol SQLSelectable: Sendable {
    /// The selection.
    var sqlSelection: SQLSelection { get }
}

extension SQLSelection: SQLSelectable {
    public var sqlSelection: SQLSelection { self }
}

extension SQLExpressible {
    public var sqlSelection: SQLSelection { SQLSelection(.expression(sqlExpression)) }
}

extension Column: SQLSelectable {}
extension SQLExpression: SQLSelectable {}

/// All columns: `*`.
public struct AllColumns: SQLSelectable {
    public init() {}
    public var sqlSelection: SQLSelection { .allColumns }
}
