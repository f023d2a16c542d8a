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
/// record type to write its table name (`\(Player.self)`), a sequence of values for the
/// inside of `IN (...)` (`\(ids)`), and raw SQL with `\(sql: "...")`.
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
        self.init(sql: stringInterpolation.sql, arguments: StatementArguments(stringInterpolation.arguments))
    }

    /// Appends other SQL.
    public mutating func append(_ other: SQL) {
        sql += other.sql
        arguments.append(contentsOf: other.arguments)
    }

    public var description: String { sql }

    /// The interpolation that binds values.
    public struct StringInterpolation: StringInterpolationProtocol {
        var sql = ""
        var arguments: [DatabaseValue] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            sql.reserveCapacity(literalCapacity + interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            sql += literal
        }

        /// A value is bound (`?`); a column or an expression is written as SQL.
        public mutating func appendInterpolation(_ value: (any SQLExpressible)?) {
            guard let value else {
                sql += "NULL"
                return
            }
            if value is any SQLSpecificExpressible {
                var context = SQLGenerationContext()
                sql += value.sqlExpression.sql(&context)
                arguments.append(contentsOf: context.arguments)
            } else {
                sql += "?"
                arguments.append(value.sqlExpression.boundValue ?? .null)
            }
        }

        /// A sequence of values, bound and separated by commas: for `IN (\(ids))`.
        public mutating func appendInterpolation<S: Sequence>(_ values: S) where S.Element: DatabaseValueConvertible {
            let values = values.map(\.databaseValue)
            sql += Array(repeating: "?", count: values.count).joined(separator: ", ")
            arguments.append(contentsOf: values)
        }

        /// The quoted table name of a record type.
        public mutating func appendInterpolation<T: TableRecord>(_ type: T.Type) {
            sql += T.databaseTableName.quotedDatabaseIdentifier
        }

        /// The quoted name of a table.
        public mutating func appendInterpolation<T>(_ table: Table<T>) {
            sql += table.tableName.quotedDatabaseIdentifier
        }

        /// Raw SQL, with arguments.
        public mutating func appendInterpolation(sql rawSQL: String, arguments rawArguments: StatementArguments = StatementArguments()) {
            sql += rawSQL
            arguments.append(contentsOf: rawArguments.values)
        }

        /// Other SQL.
        public mutating func appendInterpolation(_ other: SQL) {
            sql += other.sql
            arguments.append(contentsOf: other.arguments.values)
        }
    }
}

extension SQLExpression {
    /// The value of a plain value expression.
    var boundValue: DatabaseValue? {
        if case .value(let value) = node { return value }
        return nil
    }
}
