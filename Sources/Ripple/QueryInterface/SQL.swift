/// SQL with bound arguments, built with string interpolation: interpolated values are
/// bound as arguments, never pasted into the SQL.
///
/// ```swift
/// let name = "O'Brien"
/// let sql: SQL = "SELECT * FROM player WHERE name = \(name)"
/// // SELECT * FROM player WHERE name = ?   with arguments ["O'Brien"]
/// ```
///
/// Interpolate a column or an expression to write it as SQL (`\(Column("score"))`), a
/// record type to write its table name (`\(Player.self)`), a sequence of values for
/// `IN \(ids)` (written `(?,?,?)`), and raw SQL with `\(sql: "...")` (see
/// ``SQL/StringInterpolation``).
public struct SQL: ExpressibleByStringInterpolation, Sendable, CustomStringConvertible {
    /// The SQL, with `?` for each argument.
    public private(set) var sql: String
    /// The arguments.
    public private(set) var arguments: StatementArguments

    /// Raw SQL and its arguments.
    public init(sql: String, arguments: StatementArguments = StatementArguments()) {
        self.sql = sql
        self.arguments = arguments
    }

    public init(stringLiteral value: String) {
        self.init(sql: value)
    }

    public init(stringInterpolation: StringInterpolation) {
        self.init(sql: stringInterpolation.sql, arguments: stringInterpolation.arguments)
    }

    /// Appends other SQL.
    public mutating func append(_ other: SQL) {
        sql += other.sql
        arguments.append(contentsOf: other.arguments)
    }

    public var description: String { sql }
}

extension SQLExpression {
    /// The value of a plain value expression.
    var boundValue: DatabaseValue? {
        if case .value(let value) = node { return value }
        return nil
    }
}
