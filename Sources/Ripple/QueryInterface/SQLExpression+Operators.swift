// Operators that GRDB spells on expressions beyond comparisons and arithmetic: joining
// any number of expressions, bitwise operators, aggregates with a filter, LIKE ... ESCAPE.

extension SQLExpression {
    /// An operator that joins any number of expressions: `[a, b, c].joined(operator: .and)`
    /// is `(a) AND (b) AND (c)`.
    public struct AssociativeBinaryOperator: Hashable, Sendable {
        let sql: String
        /// The value of joining no expression.
        let neutralValue: DatabaseValue
        /// Whether `a • (b • c)` is `a • b • c`: not for `+` and `*`, whose results depend
        /// on the grouping for reals and for integers that overflow.
        let isStrictlyAssociative: Bool

        /// `+`; joins nothing as `0`.
        public static let add = AssociativeBinaryOperator(sql: "+", neutralValue: 0.databaseValue, isStrictlyAssociative: false)
        /// `*`; joins nothing as `1`.
        public static let multiply = AssociativeBinaryOperator(sql: "*", neutralValue: 1.databaseValue, isStrictlyAssociative: false)
        /// `AND`; joins nothing as true (`1`).
        public static let and = AssociativeBinaryOperator(sql: "AND", neutralValue: true.databaseValue, isStrictlyAssociative: true)
        /// `OR`; joins nothing as false (`0`).
        public static let or = AssociativeBinaryOperator(sql: "OR", neutralValue: false.databaseValue, isStrictlyAssociative: true)
        /// `||`, string concatenation; joins nothing as `''`.
        public static let concat = AssociativeBinaryOperator(sql: "||", neutralValue: "".databaseValue, isStrictlyAssociative: true)
        /// `&`; joins nothing as `-1` (all bits set).
        public static let bitwiseAnd = AssociativeBinaryOperator(sql: "&", neutralValue: (-1).databaseValue, isStrictlyAssociative: true)
        /// `|`; joins nothing as `0`.
        public static let bitwiseOr = AssociativeBinaryOperator(sql: "|", neutralValue: 0.databaseValue, isStrictlyAssociative: true)
    }

    /// `operands` joined by `op`: the neutral value for none, the operand for one.
    static func joined(_ operands: [SQLExpression], operator op: AssociativeBinaryOperator) -> SQLExpression {
        guard let first = operands.first else { return op.neutralValue.sqlExpression }
        if op.isStrictlyAssociative {
            // Nested infix terms of the operator print without parentheses (see `sql`).
            return operands.dropFirst().reduce(first) { SQLExpression(.infix(op.sql, $0.node, $1.node)) }
        }
        if operands.count == 1 { return first }
        return SQLExpression(.joined(op.sql, operands.map(\.node)))
    }
}

extension Sequence where Element: SQLSpecificExpressible {
    /// The expressions joined by `op`: `[Column("a"), Column("b")].joined(operator: .add)` is
    /// `"a" + "b"`. No expression makes the operator's neutral value (`1` for `.and`, `0`
    /// for `.or` and `.add`, `''` for `.concat`).
    public func joined(operator op: SQLExpression.AssociativeBinaryOperator) -> SQLExpression {
        SQLExpression.joined(map(\.sqlExpression), operator: op)
    }
}

extension Sequence where Element == any SQLSpecificExpressible {
    /// The expressions joined by `op` (see the method of sequences of one type).
    public func joined(operator op: SQLExpression.AssociativeBinaryOperator) -> SQLExpression {
        SQLExpression.joined(map(\.sqlExpression), operator: op)
    }
}

// MARK: - Bitwise operators

/// `lhs & rhs`.
public func & (lhs: any SQLSpecificExpressible, rhs: any SQLExpressible) -> SQLExpression { infix("&", lhs, rhs) }
/// `lhs & rhs`.
public func & (lhs: any SQLExpressible, rhs: any SQLSpecificExpressible) -> SQLExpression { infix("&", lhs, rhs) }
/// `lhs & rhs`.
public func & (lhs: any SQLSpecificExpressible, rhs: any SQLSpecificExpressible) -> SQLExpression { infix("&", lhs, rhs) }

/// `lhs | rhs`.
public func | (lhs: any SQLSpecificExpressible, rhs: any SQLExpressible) -> SQLExpression { infix("|", lhs, rhs) }
/// `lhs | rhs`.
public func | (lhs: any SQLExpressible, rhs: any SQLSpecificExpressible) -> SQLExpression { infix("|", lhs, rhs) }
/// `lhs | rhs`.
public func | (lhs: any SQLSpecificExpressible, rhs: any SQLSpecificExpressible) -> SQLExpression { infix("|", lhs, rhs) }

/// `lhs << rhs`.
public func << (lhs: any SQLSpecificExpressible, rhs: any SQLExpressible) -> SQLExpression { infix("<<", lhs, rhs) }
/// `lhs << rhs`.
public func << (lhs: any SQLExpressible, rhs: any SQLSpecificExpressible) -> SQLExpression { infix("<<", lhs, rhs) }
/// `lhs << rhs`.
public func << (lhs: any SQLSpecificExpressible, rhs: any SQLSpecificExpressible) -> SQLExpression { infix("<<", lhs, rhs) }

/// `lhs >> rhs`.
public func >> (lhs: any SQLSpecificExpressible, rhs: any SQLExpressible) -> SQLExpression { infix(">>", lhs, rhs) }
/// `lhs >> rhs`.
public func >> (lhs: any SQLExpressible, rhs: any SQLSpecificExpressible) -> SQLExpression { infix(">>", lhs, rhs) }
/// `lhs >> rhs`.
public func >> (lhs: any SQLSpecificExpressible, rhs: any SQLSpecificExpressible) -> SQLExpression { infix(">>", lhs, rhs) }

/// `~operand`.
public prefix func ~ (operand: any SQLSpecificExpressible) -> SQLExpression { SQLExpression(.prefix("~", operand.sqlExpression.node)) }

// MARK: - Aggregates with a filter

/// `COUNT(expression) FILTER (WHERE filter)`.
public func count(_ expression: some SQLSpecificExpressible, filter: some SQLSpecificExpressible) -> SQLExpression {
    filteredAggregate("COUNT", expression, filter)
}

/// `MAX(expression) FILTER (WHERE filter)`.
public func max(_ expression: some SQLSpecificExpressible, filter: some SQLSpecificExpressible) -> SQLExpression {
    filteredAggregate("MAX", expression, filter)
}

/// `MIN(expression) FILTER (WHERE filter)`.
public func min(_ expression: some SQLSpecificExpressible, filter: some SQLSpecificExpressible) -> SQLExpression {
    filteredAggregate("MIN", expression, filter)
}

/// `SUM(expression) FILTER (WHERE filter)`.
public func sum(_ expression: some SQLSpecificExpressible, filter: some SQLSpecificExpressible) -> SQLExpression {
    filteredAggregate("SUM", expression, filter)
}

/// `TOTAL(expression) FILTER (WHERE filter)`.
public func total(_ expression: some SQLSpecificExpressible, filter: some SQLSpecificExpressible) -> SQLExpression {
    filteredAggregate("TOTAL", expression, filter)
}

/// `AVG(expression) FILTER (WHERE filter)`.
public func average(_ expression: some SQLSpecificExpressible, filter: some SQLSpecificExpressible) -> SQLExpression {
    filteredAggregate("AVG", expression, filter)
}

private func filteredAggregate(_ name: String, _ expression: some SQLSpecificExpressible, _ filter: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.filteredAggregate(name, [expression.sqlExpression.node], filter: filter.sqlExpression.node))
}

// MARK: - LIKE ... ESCAPE

extension SQLSpecificExpressible {
    /// `self LIKE pattern ESCAPE escape`: `Column("name").like("100\\%", escape: "\\")`
    /// matches the names that start with `100%`.
    public func like(_ pattern: any SQLExpressible, escape: any SQLExpressible) -> SQLExpression {
        SQLExpression(.like(sqlExpression.node, pattern.sqlExpression.node, escape: escape.sqlExpression.node, negated: false))
    }
}
