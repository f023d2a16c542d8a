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

    /// The column, never qualified by a table: a column the request selects under this
    /// name (`annotated(with: ...forKey("total"))`), in a request that joins tables.
    ///
    /// ```swift
    /// // SELECT "player".*, ("player"."score" + "player"."bonus") AS "total", "team".*
    /// // FROM "player" JOIN "team" ON ... ORDER BY "total"
    /// let request = Player
    ///     .annotated(with: (Column("score") + Column("bonus")).forKey("total"))
    ///     .including(required: Player.team)
    ///     .order(Column("total").detached)
    /// ```
    public var detached: SQLExpression { SQLExpression(.atom(name.quotedDatabaseIdentifier)) }
}

extension ColumnExpression where Self: RawRepresentable, RawValue == String {
    /// The raw value, for an enum of columns.
    public var name: String { rawValue }
}

/// The ordering of a request: `score DESC`.
public struct SQLOrdering: Sendable, CustomStringConvertible {
    var expression: SQLExpression
    let isDescending: Bool
    /// `FIRST` or `LAST` (`NULLS FIRST`), when not SQLite's default for the direction.
    var nulls: String?
    /// Raw SQL that says its own direction, and its arguments (`order(sql:)`).
    var literal: (sql: String, arguments: [DatabaseValue])?
    var isLiteral: Bool { literal != nil }

    /// Whether the direction is written: a bare expression orders as SQLite's default
    /// (ascending) and is written without `ASC`, as in GRDB.
    var writesDirection = true

    init(expression: SQLExpression, isDescending: Bool, nulls: String? = nil) {
        self.expression = expression
        self.isDescending = isDescending
        self.nulls = nulls
    }

    /// The ordering of a bare expression: ascending, written without `ASC`.
    init(implicitlyAscending expression: SQLExpression) {
        self.init(expression: expression, isDescending: false)
        writesDirection = false
    }

    /// An ordering written in SQL: `"score DESC, name"`.
    init(literal fragment: SQLLiteralFragment) {
        expression = SQLExpression(.literal(fragment.sql, fragment.values))
        isDescending = false
        literal = (fragment.sql, fragment.values)
    }

    var reversed: SQLOrdering {
        guard !isLiteral else {
            fatalError(
                "A request ordered with order(sql:) can not be reversed: order it with columns or expressions, as order(Column(\"score\").desc).")
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

    private var directionSQL: String {
        guard writesDirection else { return "" }
        return (isDescending ? " DESC" : " ASC") + (nulls.map { " NULLS " + $0 } ?? "")
    }

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
    public var sqlOrdering: SQLOrdering { SQLOrdering(implicitlyAscending: sqlExpression) }
}

extension SQLExpression: SQLOrderingTerm {
    public var sqlOrdering: SQLOrdering { SQLOrdering(implicitlyAscending: self) }
}

/// What a request selects: all columns, or expressions.
public struct SQLSelection: Sendable {
    /// Whether the selection names a column that a filter may read: an aliased
    /// expression, or raw SQL.
    var namesColumns: Bool {
        switch kind {
        case .aliased, .literal: return true
        default: return false
        }
    }

    enum Kind: Sendable {
        case allColumns
        /// `"team".*`: all columns of an aliased table.
        case qualifiedAllColumns(TableAliasIdentity)
        case expression(SQLExpression)
        case aliased(SQLExpression, String)
        /// Raw SQL, maybe of several columns (`select(sql:)`).
        case literal(SQLLiteralFragment)
        /// A selection made with the connection, when the request runs (the aggregates
        /// of associations, which need the schema): see `resolved(_:)`.
        case whenConnected(@Sendable (Database) throws -> SQLSelection)
        /// `allColumns(excluding:)`: the columns of the request's table but these
        /// (lowercased), read when the request runs.
        case allColumnsExcluding(Set<String>)
        /// Selections made with the connection (`selectWhenConnected`), any number.
        case whenConnectedList(@Sendable (Database) throws -> [SQLSelection])
        /// `selectPrimaryKey()`: the primary key columns of the request's table (`rowid`
        /// for a table without one), read when the request runs.
        case primaryKey
    }

    let kind: Kind

    init(_ kind: Kind) {
        self.kind = kind
    }

    /// `*`
    public static let allColumns = SQLSelection(.allColumns)

    /// The selected expression, alias aside, for `COUNT(DISTINCT ...)`.
    var countableExpression: SQLExpression? {
        switch kind {
        case .expression(let expression), .aliased(let expression, _): return expression
        case .allColumns, .qualifiedAllColumns, .literal, .whenConnected, .whenConnectedList, .allColumnsExcluding, .primaryKey: return nil
        }
    }

    func sql(_ context: inout SQLGenerationContext) -> String {
        sql(&context, qualifier: nil)
    }

    /// The SQL, with `*` qualified by a quoted table name when one is given.
    func sql(_ context: inout SQLGenerationContext, qualifier: String?) -> String {
        switch kind {
        case .allColumns: return (qualifier ?? context.qualifier).map { $0 + ".*" } ?? "*"
        case .qualifiedAllColumns(let alias):
            let table = context.sqlName(of: alias)
            return table.isEmpty ? "*" : table + ".*"
        case .expression(let expression): return expression.sql(&context)
        case let .aliased(expression, name): return expression.sql(&context) + " AS " + name.quotedDatabaseIdentifier
        case .literal(let fragment): return context.bind(sql: fragment.sql, values: fragment.values)
        case .whenConnected, .whenConnectedList, .allColumnsExcluding, .primaryKey:
            assertionFailure("a selection made with the connection is resolved before its SQL is written")
            return "NULL"
        }
    }

    /// Whether the selection is made with the connection, when the request runs.
    var waitsForConnection: Bool {
        switch kind {
        case .whenConnected, .whenConnectedList, .allColumnsExcluding, .primaryKey: return true
        default: return false
        }
    }

    /// The selections this one stands for in a request of `table`, made with the
    /// connection if it waits for one.
    func resolved(_ db: Database, table: String) throws -> [SQLSelection] {
        switch kind {
        case .whenConnected(let make):
            return try [make(db)]
        case .allColumnsExcluding(let excluded):
            return try db.columns(in: table)
                .filter { !excluded.contains($0.name.lowercased()) }
                .map { Column($0.name).sqlSelection }
        case .whenConnectedList(let make):
            return try make(db)
        case .primaryKey:
            let primaryKey = try db.primaryKey(table)
            let columns = primaryKey.columns.isEmpty ? ["rowid"] : primaryKey.columns
            return columns.map { Column($0).sqlSelection }
        default:
            return [self]
        }
    }

    /// All columns but these: `Player.select(.allColumns(excluding: ["secret"]))`.
    ///
    /// - Parameter excludedColumns: The names of the columns to leave out.
    public static func allColumns(excluding excludedColumns: some Collection<String>) -> SQLSelection {
        SQLSelection(.allColumnsExcluding(Set(excludedColumns.map { $0.lowercased() })))
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
/// A value selected as a constant column: `select(Column("id"), 1.databaseValue)`.
extension DatabaseValue: SQLSelectable {}

/// All columns: `*`.
public struct AllColumns: SQLSelectable {
    public init() {}
    public var sqlSelection: SQLSelection { .allColumns }
}
