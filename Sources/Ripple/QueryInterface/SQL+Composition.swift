extension SQL {
    /// The SQL of an expression: `SQL(Column("score") + 1)`.
    ///
    /// - Parameter expression: An expression, such as a column.
    public init(_ expression: some SQLSpecificExpressible) {
        var context = SQLGenerationContext()
        self.init(sql: expression.sqlExpression.sql(&context), arguments: StatementArguments(context.arguments))
    }

    /// Whether the SQL is empty (arguments aside).
    public var isEmpty: Bool { sql.isEmpty }

    /// The SQL and its arguments, as a statement takes them.
    ///
    /// - Parameter db: A connection (unused: Ripple builds SQL literals when they are
    ///   written; GRDB code passes one).
    public func build(_ db: Database) throws -> (sql: String, arguments: StatementArguments) {
        (sql, arguments)
    }

    /// The concatenation of two SQL literals.
    ///
    /// - Parameters:
    ///   - lhs: The first SQL literal.
    ///   - rhs: The SQL literal that follows.
    public static func + (lhs: SQL, rhs: SQL) -> SQL {
        var result = lhs
        result.append(rhs)
        return result
    }

    /// Appends an SQL literal.
    ///
    /// - Parameters:
    ///   - lhs: The SQL literal that grows.
    ///   - rhs: The SQL literal to append.
    public static func += (lhs: inout SQL, rhs: SQL) {
        lhs.append(rhs)
    }

    /// Appends an SQL literal: `query.append(literal: "WHERE id = \(id)")`.
    ///
    /// - Parameter sqlLiteral: The SQL literal to append.
    public mutating func append(literal sqlLiteral: SQL) {
        append(sqlLiteral)
    }

    /// Appends raw SQL and its arguments.
    ///
    /// - Parameters:
    ///   - sql: Raw SQL.
    ///   - arguments: The values of its parameters.
    public mutating func append(sql: String, arguments: StatementArguments = StatementArguments()) {
        append(SQL(sql: sql, arguments: arguments))
    }

    /// The SQL as one piece of a larger statement, with positional arguments only.
    var fragment: SQLLiteralFragment { SQLLiteralFragment(sql: sql, arguments: arguments) }
}

extension SQL: SQLSpecificExpressible {
    /// The SQL as an expression, parenthesized when it is an operand:
    /// `Player.filter(SQL("score > \(1000)") && Column("name") != nil)`.
    public var sqlExpression: SQLExpression {
        let fragment = fragment
        return SQLExpression(.literal(fragment.sql, fragment.values))
    }
}

extension SQL: SQLSelectable {
    /// The SQL as a selection, as written (it may select several columns):
    /// `Player.select(literal: "name, score * \(2)")`.
    public var sqlSelection: SQLSelection { SQLSelection(.literal(fragment)) }
}

extension SQL: SQLOrderingTerm {
    /// The SQL as an ordering, as written with its directions:
    /// `Player.order(literal: "score DESC, name")`. Such a request can not be reversed.
    public var sqlOrdering: SQLOrdering { SQLOrdering(literal: fragment) }
}

extension Sequence where Element == SQL {
    /// The SQL literals joined with a separator: `[a, b].joined(separator: ", ")`.
    ///
    /// - Parameter separator: The SQL between two literals.
    public func joined(separator: String = "") -> SQL {
        var result = SQL(sql: "")
        for (index, literal) in enumerated() {
            if index > 0 { result.append(sql: separator) }
            result.append(literal)
        }
        return result
    }
}
