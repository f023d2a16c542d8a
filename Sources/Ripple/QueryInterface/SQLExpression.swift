/// A type that can be used in an SQL expression: database values (`1`, `"Arthur"`, `nil`),
/// columns, and expressions.
public protocol SQLExpressible: Sendable {
    /// The SQL expression.
    var sqlExpression: SQLExpression { get }
}

/// A type that is an SQL expression in its own right (a column, an expression), as
/// opposed to a plain value. SQL operators (`==`, `<`, `&&`, ...) build expressions when one
/// side at least is specific, so that `1 == 1` stays a `Bool`.
public protocol SQLSpecificExpressible: SQLExpressible {}

extension DatabaseValueConvertible {
    /// The value, bound as a statement argument.
    public var sqlExpression: SQLExpression { SQLExpression(.value(databaseValue)) }
}

extension DatabaseValue {
    /// The value as an SQL literal: `NULL`, `42`, `1.5`, `'it''s'`, `X'00FF'`.
    var sqlLiteral: String {
        switch storage {
        case .null: return "NULL"
        case .int64(let int): return String(int)
        case .double(let double):
            if double.isNaN { return "NULL" }
            if double.isInfinite { return double > 0 ? "9e999" : "-9e999" }
            return "\(double)"
        case .string(let string): return string.sqlQuoted(by: UInt8(ascii: "'"))
        case .blob(let data): return "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }
}

extension SQLExpressible {
    /// The expression's SQL with its values written as literals.
    var inlineSQL: String {
        var context = SQLGenerationContext(inlinesValues: true)
        return sqlExpression.sql(&context)
    }
}

/// An SQL expression: `score > 1000`, `name LIKE 'A%'`, `MAX(score)`...
///
/// Build expressions from columns, values and operators:
///
/// ```swift
/// let expression = Column("score") > 1000 && Column("name") != nil
/// ```
public struct SQLExpression: SQLSpecificExpressible, CustomStringConvertible {
    indirect enum Node: Sendable {
        case column(String)
        /// A column of an aliased table: `teamAlias[Column("name")]`.
        case qualifiedColumn(TableAliasIdentity, String)
        case value(DatabaseValue)
        case literal(String, [DatabaseValue])
        /// SQL that needs no parentheses as an operand: the `0` of `none()`.
        case atom(String)
        /// Whether the aliased table has a row (`TableAlias.exists`): its key is not NULL.
        case exists(TableAliasIdentity, negated: Bool)
        case prefix(String, Node)
        case infix(String, Node, Node)
        case function(String, [Node])
        case collated(Node, String)
        case countAll
        case countDistinct(Node)
        case inList(Node, [Node], negated: Bool)
        /// An aggregate function with a `FILTER (WHERE ...)` clause.
        case filteredAggregate(String, [Node], filter: Node)
        /// Operands joined by an operator that is not strictly associative (`+`, `*`):
        /// `"a" + 2 + "b"`, each operand parenthesized when needed.
        case joined(String, [Node])
        /// `operand LIKE pattern ESCAPE escape`, or `NOT LIKE`.
        case like(Node, Node, escape: Node, negated: Bool)
        /// A subquery as a value: `(SELECT MAX("score") FROM "player")`.
        case subquery(SQLSubquery)
        /// `EXISTS (SELECT ...)`, or `NOT EXISTS`.
        case existsSubquery(SQLSubquery, negated: Bool)
        /// `operand IN (SELECT ...)`, or `NOT IN`.
        case inSubquery(Node, SQLSubquery, negated: Bool)
    }

    var node: Node

    /// Whether JSON-building functions read the expression as JSON rather than as a
    /// plain string (`asJSON`, `JSONColumn`); see `jsonBuilderExpression`.
    var prefersJSONInterpretation = false

    init(_ node: Node) {
        self.node = node
    }

    public var sqlExpression: SQLExpression { self }

    /// Raw SQL, with arguments for its parameters: `SQLExpression(sql: "score + ?", arguments: [1])`.
    ///
    /// - Parameters:
    ///   - sql: An SQL expression.
    ///   - arguments: The values of its `?` and named parameters.
    public init(sql: String, arguments: StatementArguments = StatementArguments()) {
        let fragment = SQLLiteralFragment(sql: sql, arguments: arguments)
        node = .literal(fragment.sql, fragment.values)
    }

    func sql(_ context: inout SQLGenerationContext) -> String {
        Self.sql(node, &context)
    }

    private static func sql(_ node: Node, _ context: inout SQLGenerationContext) -> String {
        switch node {
        case .column(let name):
            if let qualifier = context.qualifier { return qualifier + "." + name.quotedDatabaseIdentifier }
            return name.quotedDatabaseIdentifier
        case let .qualifiedColumn(alias, name):
            // (An empty name: the alias names the only table of the SQL, unqualified.)
            let table = context.sqlName(of: alias)
            return table.isEmpty ? name.quotedDatabaseIdentifier : table + "." + name.quotedDatabaseIdentifier
        case .value(let value):
            return value.isNull ? "NULL" : context.bind(value)
        case let .literal(sql, arguments):
            // Parenthesized only as an operand (see `parenthesized`).
            return context.bind(sql: sql, values: arguments)
        case let .prefix(op, operand):
            // `-x` and `~x`, as GRDB writes them; `NOT x`.
            return op + (op == "-" || op == "+" || op == "~" ? "" : " ") + parenthesized(operand, &context)
        case let .infix(op, lhs, rhs):
            // AND, OR, ||, & and | are associative: `(a) AND (b) AND (c)`, not
            // `((a) AND (b)) AND (c)`.
            if op == "AND" || op == "OR" || op == "||" || op == "&" || op == "|" {
                return associativeOperand(lhs, op, &context) + " " + op + " " + associativeOperand(rhs, op, &context)
            }
            // `x BETWEEN low AND high`: the bounds are an AND node, written without parentheses.
            if op == "BETWEEN" || op == "NOT BETWEEN", case let .infix("AND", low, high) = rhs {
                return parenthesized(lhs, &context) + " " + op + " " + parenthesized(low, &context) + " AND " + parenthesized(high, &context)
            }
            return parenthesized(lhs, &context) + " " + op + " " + parenthesized(rhs, &context)
        case let .function(name, arguments):
            return name + "(" + arguments.map { sql($0, &context) }.joined(separator: ", ") + ")"
        case .countAll:
            return "COUNT(*)"
        case .atom(let sql):
            return sql
        case let .exists(alias, negated):
            let table = context.sqlName(of: alias)
            let terms = context.existenceColumns(of: alias).map { column in
                (table.isEmpty ? "" : table + ".") + column.quotedDatabaseIdentifier + (negated ? " IS NULL" : " IS NOT NULL")
            }
            return terms.count == 1 ? terms[0] : terms.map { "(" + $0 + ")" }.joined(separator: " AND ")
        case .countDistinct(let operand):
            return "COUNT(DISTINCT " + sql(operand, &context) + ")"
        case let .inList(operand, list, negated):
            let items = list.map { sql($0, &context) }.joined(separator: ", ")
            return parenthesized(operand, &context) + (negated ? " NOT IN (" : " IN (") + items + ")"
        case let .collated(operand, collation):
            // (Parenthesized as an operand: see `parenthesized`.)
            return sql(operand, &context) + " COLLATE " + collation
        case let .filteredAggregate(name, arguments, filter):
            return sql(.function(name, arguments), &context) + " FILTER (WHERE " + sql(filter, &context) + ")"
        case let .joined(op, operands):
            return operands.map { parenthesized($0, &context) }.joined(separator: " " + op + " ")
        case let .like(operand, pattern, escape, negated):
            return parenthesized(operand, &context) + (negated ? " NOT LIKE " : " LIKE ") + parenthesized(pattern, &context) + " ESCAPE "
                + parenthesized(escape, &context)
        case .subquery(let subquery):
            return "(" + context.sql(of: subquery) + ")"
        case let .existsSubquery(subquery, negated):
            return (negated ? "NOT EXISTS (" : "EXISTS (") + context.sql(of: subquery) + ")"
        case let .inSubquery(operand, subquery, negated):
            return parenthesized(operand, &context) + (negated ? " NOT IN (" : " IN (") + context.sql(of: subquery) + ")"
        }
    }

    private static func associativeOperand(_ node: Node, _ op: String, _ context: inout SQLGenerationContext) -> String {
        if case .infix(op, _, _) = node { return sql(node, &context) }
        return parenthesized(node, &context)
    }

    private static func parenthesized(_ node: Node, _ context: inout SQLGenerationContext) -> String {
        switch node {
        case .infix, .prefix, .inList, .literal, .exists, .joined, .like, .collated, .existsSubquery, .inSubquery:
            return "(" + sql(node, &context) + ")"
        default:
            return sql(node, &context)
        }
    }

    /// The SQL with its arguments inlined, for debugging: `"score" > 1000`.
    public var description: String {
        var context = SQLGenerationContext()
        let sql = sql(&context)
        var result = ""
        var arguments = context.arguments.makeIterator()
        for character in sql {
            if character == "?", let value = arguments.next() {
                result += value.description
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// Whether the expression is false for every row, whatever the row: `0` (as `none()`
    /// writes it), `x IN ()`, and AND-ed terms of which one is so.
    var isAlwaysFalse: Bool { Self.isAlwaysFalse(node) }

    private static func isAlwaysFalse(_ node: Node) -> Bool {
        switch node {
        case .atom("0"): return true
        case let .inList(_, list, negated: false): return list.isEmpty
        case let .infix("AND", lhs, rhs): return isAlwaysFalse(lhs) || isAlwaysFalse(rhs)
        default: return false
        }
    }

    /// The rowids this expression restricts `rowIDColumn` to, when it is an equality (`=`,
    /// `IS`) or an IN test on it, possibly among AND-ed and OR-ed terms; nil when it does
    /// not restrict rowids.
    func restrictedRowIDs(rowIDColumn: String) -> RowIDSet? {
        Self.rowIDs(node, rowIDColumn.lowercased())
    }

    private static func rowIDs(_ node: Node, _ column: String) -> RowIDSet? {
        func isRowIDColumn(_ node: Node) -> Bool {
            guard case .column(let columnName) = node else { return false }
            let name = columnName.lowercased()
            return name == column || name == "rowid" || name == "_rowid_" || name == "oid"
        }
        func integer(_ node: Node) -> Int64? {
            guard case .value(let value) = node else { return nil }
            return Int64.fromDatabaseValue(value)
        }
        func isNull(_ node: Node) -> Bool {
            guard case .value(let value) = node else { return false }
            return value.isNull
        }
        switch node {
        case let .infix("=", lhs, rhs), let .infix("IS", lhs, rhs):
            if isRowIDColumn(lhs), let id = integer(rhs) { return [id] }
            if isRowIDColumn(rhs), let id = integer(lhs) { return [id] }
            // A rowid is never NULL.
            if (isRowIDColumn(lhs) && isNull(rhs)) || (isRowIDColumn(rhs) && isNull(lhs)) { return [] }
            return nil
        case let .infix("OR", lhs, rhs):
            guard let lhsIDs = rowIDs(lhs, column), let rhsIDs = rowIDs(rhs, column) else { return nil }
            return lhsIDs.union(rhsIDs)
        case let .inList(operand, list, negated: false):
            guard isRowIDColumn(operand) else { return nil }
            var ids: Set<Int64> = []
            for item in list {
                guard let id = integer(item) else { return nil }
                ids.insert(id)
            }
            return RowIDSet(ids)
        case let .infix("AND", lhs, rhs):
            switch (rowIDs(lhs, column), rowIDs(rhs, column)) {
            case (nil, nil): return nil
            case let (ids?, nil), let (nil, ids?): return ids
            case let (a?, b?): return a.intersection(b)
            }
        default:
            return nil
        }
    }
}

// MARK: - Operators
//
// Global functions with three overloads each, as GRDB has them: one side specific, the
// other side specific, both sides specific. The most specific one wins, and `1 < 2` stays
// a Bool because neither side is specific.

func infix(_ op: String, _ lhs: (any SQLExpressible)?, _ rhs: (any SQLExpressible)?) -> SQLExpression {
    let lhs = (lhs?.sqlExpression ?? SQLExpression(.value(.null))).node
    let rhs = (rhs?.sqlExpression ?? SQLExpression(.value(.null))).node
    if comparisonOperators.contains(op) {
        // A collated operand collates the comparison: `"name" = 'foo' COLLATE NOCASE`,
        // as GRDB writes it (SQLite compares with the collation of either operand).
        if case let .collated(operand, collation) = lhs { return SQLExpression(.collated(.infix(op, operand, rhs), collation)) }
        if case let .collated(operand, collation) = rhs { return SQLExpression(.collated(.infix(op, lhs, operand), collation)) }
    }
    return SQLExpression(.infix(op, lhs, rhs))
}

private let comparisonOperators: Set<String> = ["=", "<>", "IS", "IS NOT", "<", "<=", ">", ">="]

private func isNull(_ value: (any SQLExpressible)?) -> Bool {
    guard let value else { return true }
    if case .value(let dbValue) = value.sqlExpression.node { return dbValue.isNull }
    return false
}

private func equality(_ lhs: (any SQLExpressible)?, _ rhs: (any SQLExpressible)?, negated: Bool) -> SQLExpression {
    // Comparing with NULL is `IS NULL`, as Swift programmers expect of `== nil`; NULL
    // goes right, as GRDB writes it.
    if isNull(lhs) && !isNull(rhs) { return infix(negated ? "IS NOT" : "IS", rhs, lhs) }
    if isNull(lhs) || isNull(rhs) { return infix(negated ? "IS NOT" : "IS", lhs, rhs) }
    return infix(negated ? "<>" : "=", lhs, rhs)
}

/// `lhs = rhs`, or `lhs IS NULL` when one side is nil.
public func == (lhs: any SQLSpecificExpressible, rhs: (any SQLExpressible)?) -> SQLExpression { equality(lhs, rhs, negated: false) }
/// `lhs = rhs`, or `rhs IS NULL` when lhs is nil; a boolean goes right, as GRDB writes
/// it (`true == Column("isActive")` is `"isActive" = 1`).
public func == (lhs: (any SQLExpressible)?, rhs: any SQLSpecificExpressible) -> SQLExpression {
    lhs is Bool ? equality(rhs, lhs, negated: false) : equality(lhs, rhs, negated: false)
}
/// `lhs = rhs`, or `lhs IS NULL` when one side is nil.
public func == (lhs: any SQLSpecificExpressible, rhs: any SQLSpecificExpressible) -> SQLExpression { equality(lhs, rhs, negated: false) }

/// `lhs <> rhs`, or `lhs IS NOT NULL` when one side is nil.
public func != (lhs: any SQLSpecificExpressible, rhs: (any SQLExpressible)?) -> SQLExpression { equality(lhs, rhs, negated: true) }
/// `lhs <> rhs`, or `rhs IS NOT NULL` when lhs is nil; a boolean goes right.
public func != (lhs: (any SQLExpressible)?, rhs: any SQLSpecificExpressible) -> SQLExpression {
    lhs is Bool ? equality(rhs, lhs, negated: true) : equality(lhs, rhs, negated: true)
}
/// `lhs <> rhs`, or `lhs IS NOT NULL` when one side is nil.
public func != (lhs: any SQLSpecificExpressible, rhs: any SQLSpecificExpressible) -> SQLExpression { equality(lhs, rhs, negated: true) }

/// `lhs < rhs`.
public func < (lhs: any SQLSpecificExpressible, rhs: (any SQLExpressible)) -> SQLExpression { infix("<", lhs, rhs) }
/// `lhs < rhs`.
public func < (lhs: (any SQLExpressible), rhs: any SQLSpecificExpressible) -> SQLExpression { infix("<", lhs, rhs) }
/// `lhs < rhs`.
public func < (lhs: any SQLSpecificExpressible, rhs: any SQLSpecificExpressible) -> SQLExpression { infix("<", lhs, rhs) }

/// `lhs <= rhs`.
public func <= (lhs: any SQLSpecificExpressible, rhs: (any SQLExpressible)) -> SQLExpression { infix("<=", lhs, rhs) }
/// `lhs <= rhs`.
public func <= (lhs: (any SQLExpressible), rhs: any SQLSpecificExpressible) -> SQLExpression { infix("<=", lhs, rhs) }
/// `lhs <= rhs`.
public func <= (lhs: any SQLSpecificExpressible, rhs: any SQLSpecificExpressible) -> SQLExpression { infix("<=", lhs, rhs) }

/// `lhs > rhs`.
public func > (lhs: any SQLSpecificExpressible, rhs: (any SQLExpressible)) -> SQLExpression { infix(">", lhs, rhs) }
/// `lhs > rhs`.
public func > (lhs: (any SQLExpressible), rhs: any SQLSpecificExpressible) -> SQLExpression { infix(">", lhs, rhs) }
/// `lhs > rhs`.
public func > (lhs: any SQLSpecificExpressible, rhs: any SQLSpecificExpressible) -> SQLExpression { infix(">", lhs, rhs) }

/// `lhs >= rhs`.
public func >= (lhs: any SQLSpecificExpressible, rhs: (any SQLExpressible)) -> SQLExpression { infix(">=", lhs, rhs) }
/// `lhs >= rhs`.
public func >= (lhs: (any SQLExpressible), rhs: any SQLSpecificExpressible) -> SQLExpression { infix(">=", lhs, rhs) }
/// `lhs >= rhs`.
public func >= (lhs: any SQLSpecificExpressible, rhs: any SQLSpecificExpressible) -> SQLExpression { infix(">=", lhs, rhs) }

/// `lhs + rhs`.
public func + (lhs: any SQLSpecificExpressible, rhs: (any SQLExpressible)) -> SQLExpression { infix("+", lhs, rhs) }
/// `lhs + rhs`.
public func + (lhs: (any SQLExpressible), rhs: any SQLSpecificExpressible) -> SQLExpression { infix("+", lhs, rhs) }
/// `lhs + rhs`.
public func + (lhs: any SQLSpecificExpressible, rhs: any SQLSpecificExpressible) -> SQLExpression { infix("+", lhs, rhs) }

/// `lhs - rhs`.
public func - (lhs: any SQLSpecificExpressible, rhs: (any SQLExpressible)) -> SQLExpression { infix("-", lhs, rhs) }
/// `lhs - rhs`.
public func - (lhs: (any SQLExpressible), rhs: any SQLSpecificExpressible) -> SQLExpression { infix("-", lhs, rhs) }
/// `lhs - rhs`.
public func - (lhs: any SQLSpecificExpressible, rhs: any SQLSpecificExpressible) -> SQLExpression { infix("-", lhs, rhs) }

/// `lhs * rhs`.
public func * (lhs: any SQLSpecificExpressible, rhs: (any SQLExpressible)) -> SQLExpression { infix("*", lhs, rhs) }
/// `lhs * rhs`.
public func * (lhs: (any SQLExpressible), rhs: any SQLSpecificExpressible) -> SQLExpression { infix("*", lhs, rhs) }
/// `lhs * rhs`.
public func * (lhs: any SQLSpecificExpressible, rhs: any SQLSpecificExpressible) -> SQLExpression { infix("*", lhs, rhs) }

/// `lhs / rhs`.
public func / (lhs: any SQLSpecificExpressible, rhs: (any SQLExpressible)) -> SQLExpression { infix("/", lhs, rhs) }
/// `lhs / rhs`.
public func / (lhs: (any SQLExpressible), rhs: any SQLSpecificExpressible) -> SQLExpression { infix("/", lhs, rhs) }
/// `lhs / rhs`.
public func / (lhs: any SQLSpecificExpressible, rhs: any SQLSpecificExpressible) -> SQLExpression { infix("/", lhs, rhs) }

/// `lhs AND rhs`.
public func && (lhs: any SQLSpecificExpressible, rhs: any SQLSpecificExpressible) -> SQLExpression { infix("AND", lhs, rhs) }
/// `lhs AND rhs`: `Column("isActive") && true`.
public func && (lhs: any SQLSpecificExpressible, rhs: any SQLExpressible) -> SQLExpression { infix("AND", lhs, rhs) }
/// `lhs AND rhs`.
public func && (lhs: any SQLExpressible, rhs: any SQLSpecificExpressible) -> SQLExpression { infix("AND", lhs, rhs) }
/// `lhs OR rhs`.
public func || (lhs: any SQLSpecificExpressible, rhs: any SQLSpecificExpressible) -> SQLExpression { infix("OR", lhs, rhs) }
/// `lhs OR rhs`: `Column("isActive") || false`.
public func || (lhs: any SQLSpecificExpressible, rhs: any SQLExpressible) -> SQLExpression { infix("OR", lhs, rhs) }
/// `lhs OR rhs`.
public func || (lhs: any SQLExpressible, rhs: any SQLSpecificExpressible) -> SQLExpression { infix("OR", lhs, rhs) }
/// `NOT operand`.
public prefix func ! (operand: any SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(negated(operand.sqlExpression.node))
}

/// The negation of `node`, written with the negated operator where there is one, as GRDB
/// writes it: `"a" <> 1`, `"a" IS NOT NULL`, `"a" NOT IN (...)`, `"a" NOT LIKE ...`.
private func negated(_ node: SQLExpression.Node) -> SQLExpression.Node {
    switch node {
    case let .exists(alias, negated):
        // `!alias.exists` is `"author"."id" IS NULL`.
        return .exists(alias, negated: !negated)
    case let .infix(op, lhs, rhs):
        let opposites = [
            "=": "<>", "<>": "=", "IS": "IS NOT", "IS NOT": "IS", "LIKE": "NOT LIKE", "NOT LIKE": "LIKE", "BETWEEN": "NOT BETWEEN",
            "NOT BETWEEN": "BETWEEN",
        ]
        guard let opposite = opposites[op] else { return .prefix("NOT", node) }
        return .infix(opposite, lhs, rhs)
    case let .inList(operand, list, isNegated):
        return .inList(operand, list, negated: !isNegated)
    case .atom("0"):
        return .atom("1")
    case .atom("1"):
        return .atom("0")
    case let .like(operand, pattern, escape, isNegated):
        return .like(operand, pattern, escape: escape, negated: !isNegated)
    case let .existsSubquery(subquery, isNegated):
        return .existsSubquery(subquery, negated: !isNegated)
    case let .inSubquery(operand, subquery, isNegated):
        return .inSubquery(operand, subquery, negated: !isNegated)
    case let .collated(operand, collation):
        return .collated(negated(operand), collation)
    default:
        return .prefix("NOT", node)
    }
}
/// `-operand`.
public prefix func - (operand: any SQLSpecificExpressible) -> SQLExpression { SQLExpression(.prefix("-", operand.sqlExpression.node)) }

extension SQLSpecificExpressible {
    /// `self LIKE pattern`.
    public func like(_ pattern: any SQLExpressible) -> SQLExpression { infix("LIKE", self, pattern) }

    /// An ascending ordering: `score ASC`.
    public var asc: SQLOrdering { SQLOrdering(expression: sqlExpression, isDescending: false) }
    /// A descending ordering: `score DESC`.
    public var desc: SQLOrdering { SQLOrdering(expression: sqlExpression, isDescending: true) }
    /// An ascending ordering, NULLs last: `score ASC NULLS LAST`.
    public var ascNullsLast: SQLOrdering { SQLOrdering(expression: sqlExpression, isDescending: false, nulls: "LAST") }
    /// A descending ordering, NULLs first: `score DESC NULLS FIRST`.
    public var descNullsFirst: SQLOrdering { SQLOrdering(expression: sqlExpression, isDescending: true, nulls: "FIRST") }

    /// The expression with a name, for `select`: `(score * 2) AS doubleScore`.
    public func forKey(_ name: String) -> SQLSelection { SQLSelection(.aliased(sqlExpression, name)) }
}

extension Sequence where Element: SQLExpressible {
    /// `expression IN (values...)`:
    /// `[1, 2, 3].contains(Column("id"))` is `id IN (1, 2, 3)`.
    public func contains(_ expression: some SQLSpecificExpressible) -> SQLExpression {
        .inList(expression, map(\.sqlExpression.node))
    }
}

extension Sequence where Element == any SQLExpressible {
    /// `expression IN (values...)`, for a list of values of several types.
    public func contains(_ expression: some SQLSpecificExpressible) -> SQLExpression {
        .inList(expression, map(\.sqlExpression.node))
    }
}

extension SQLExpression {
    /// `expression IN (list)`; `0` for an empty list, which no value is in, as GRDB
    /// writes it.
    fileprivate static func inList(_ expression: some SQLSpecificExpressible, _ list: [Node]) -> SQLExpression {
        if list.isEmpty { return SQLExpression(.atom("0")) }
        // One value: `x = value`, as GRDB writes it, which is `x IN (value)` also for NULL.
        if list.count == 1 { return infix("=", expression, SQLExpression(list[0])) }
        return SQLExpression(.inList(expression.sqlExpression.node, list, negated: false))
    }
}

extension Range where Bound: SQLExpressible {
    /// `expression >= lowerBound AND expression < upperBound`: `(1.5..<2).contains(Column("score"))`.
    public func contains(_ expression: some SQLSpecificExpressible) -> SQLExpression {
        (expression >= lowerBound) && (expression < upperBound)
    }
}

extension ClosedRange where Bound: SQLExpressible {
    /// `expression BETWEEN lowerBound AND upperBound`: `("A"..."M").contains(Column("name"))`.
    public func contains(_ expression: some SQLSpecificExpressible) -> SQLExpression {
        let bounds = SQLExpression.Node.infix("AND", lowerBound.sqlExpression.node, upperBound.sqlExpression.node)
        // (A collated operand stays on the left, where SQLite reads the collation of both
        // comparisons: `("name" COLLATE NOCASE) BETWEEN 'a' AND 'm'`.)
        return SQLExpression(.infix("BETWEEN", expression.sqlExpression.node, bounds))
    }
}

/// `lhs IS rhs`: equality where NULL equals NULL.
public func === (lhs: any SQLSpecificExpressible, rhs: (any SQLExpressible)?) -> SQLExpression { infix("IS", lhs, rhs) }
/// `lhs IS rhs`; `rhs IS NULL` when lhs is nil, as GRDB writes it.
public func === (lhs: (any SQLExpressible)?, rhs: any SQLSpecificExpressible) -> SQLExpression {
    isNull(lhs) ? infix("IS", rhs, lhs) : infix("IS", lhs, rhs)
}
/// `lhs IS rhs`.
public func === (lhs: any SQLSpecificExpressible, rhs: any SQLSpecificExpressible) -> SQLExpression { infix("IS", lhs, rhs) }
/// `lhs IS NOT rhs`.
public func !== (lhs: any SQLSpecificExpressible, rhs: (any SQLExpressible)?) -> SQLExpression { infix("IS NOT", lhs, rhs) }
/// `lhs IS NOT rhs`; `rhs IS NOT NULL` when lhs is nil.
public func !== (lhs: (any SQLExpressible)?, rhs: any SQLSpecificExpressible) -> SQLExpression {
    isNull(lhs) ? infix("IS NOT", rhs, lhs) : infix("IS NOT", lhs, rhs)
}
/// `lhs IS NOT rhs`.
public func !== (lhs: any SQLSpecificExpressible, rhs: any SQLSpecificExpressible) -> SQLExpression { infix("IS NOT", lhs, rhs) }

// MARK: - Aggregates

/// `COUNT(expression)`.
public func count(_ expression: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.function("COUNT", [expression.sqlExpression.node]))
}

/// `COUNT(DISTINCT expression)`.
public func count(distinct expression: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.countDistinct(expression.sqlExpression.node))
}

/// `MAX(expression)`.
public func max(_ expression: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.function("MAX", [expression.sqlExpression.node]))
}

/// `MIN(expression)`.
public func min(_ expression: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.function("MIN", [expression.sqlExpression.node]))
}

/// `MAX(a, b, ...)`: the largest of the values of one row (SQLite's scalar `MAX`).
public func max(_ value1: any SQLSpecificExpressible, _ value2: any SQLExpressible, _ values: any SQLExpressible...) -> SQLExpression {
    SQLExpression(.function("MAX", ([value1, value2] + values).map(\.sqlExpression.node)))
}

/// `MIN(a, b, ...)`: the smallest of the values of one row (SQLite's scalar `MIN`).
public func min(_ value1: any SQLSpecificExpressible, _ value2: any SQLExpressible, _ values: any SQLExpressible...) -> SQLExpression {
    SQLExpression(.function("MIN", ([value1, value2] + values).map(\.sqlExpression.node)))
}

/// `SUM(expression)`.
public func sum(_ expression: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.function("SUM", [expression.sqlExpression.node]))
}

/// `AVG(expression)`.
public func average(_ expression: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.function("AVG", [expression.sqlExpression.node]))
}

/// `LENGTH(expression)`.
public func length(_ expression: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.function("LENGTH", [expression.sqlExpression.node]))
}

extension SQLSpecificExpressible {
    /// The expression compared with a collation: `Column("name").collating(.nocase) == "arthur"`,
    /// or `order(Column("name").collating(.nocase))`.
    public func collating(_ collation: Database.CollationName) -> SQLExpression {
        // SQLite compares `x IN (...)` and `x BETWEEN y AND z` with the collation of `x`
        // (after `z`, it would collate one comparison of the two): the collation goes there.
        switch sqlExpression.node {
        case let .inList(operand, list, negated):
            return SQLExpression(.inList(.collated(operand, collation.rawValue), list, negated: negated))
        case let .infix(op, operand, bounds) where op == "BETWEEN" || op == "NOT BETWEEN":
            return SQLExpression(.infix(op, .collated(operand, collation.rawValue), bounds))
        default:
            break
        }
        return SQLExpression(.collated(sqlExpression.node, collation.rawValue))
    }
}
