/// An SQL expression that is read as a JSON value.
///
/// JSON values give access to their subcomponents (`->>`, `->`, `JSON_EXTRACT`), and
/// JSON-building functions such as `Database.jsonArray` parse them as JSON instead of
/// embedding them as plain strings:
///
/// ```swift
/// // JSON_ARRAY(JSON("address"), "address")
/// Database.jsonArray([JSONColumn("address"), Column("address")] as [any SQLExpressible])
/// ```
///
/// Build JSON values with ``JSONColumn``, or with the `asJSON` property of any expression.
public protocol SQLJSONExpressible: SQLSpecificExpressible {}

/// A type-erased ``SQLJSONExpressible``.
public struct AnySQLJSONExpressible: SQLJSONExpressible {
    /// The expression, read as JSON by JSON-building functions.
    public let sqlExpression: SQLExpression

    /// Wraps a JSON value.
    ///
    /// - Parameter base: A JSON value.
    public init(_ base: some SQLJSONExpressible) {
        sqlExpression = base.sqlExpression.withJSONInterpretation()
    }

    init(sqlExpression: SQLExpression) {
        self.sqlExpression = sqlExpression.withJSONInterpretation()
    }
}

extension SQLSpecificExpressible {
    /// The expression, read as a JSON value: `Column("info").asJSON["firstName"]`.
    public var asJSON: AnySQLJSONExpressible {
        AnySQLJSONExpressible(sqlExpression: sqlExpression)
    }
}

extension SQLJSONExpressible {
    /// The `->>` SQL operator: the SQL value at a path.
    ///
    /// ```swift
    /// // info ->> 'firstName'
    /// JSONColumn("info")["firstName"]
    /// ```
    ///
    /// - Parameter path: A JSON path, an object field label, or an array index.
    public subscript(_ path: some SQLExpressible) -> SQLExpression {
        infix("->>", self, path)
    }

    /// The `JSON_EXTRACT` SQL function, at one path.
    ///
    /// - Parameter path: A JSON path, such as `"$.firstName"`.
    public func jsonExtract(atPath path: some SQLExpressible) -> SQLExpression {
        Database.jsonExtract(self, atPath: path)
    }

    /// The `JSON_EXTRACT` SQL function, at several paths: a JSON array of the values.
    ///
    /// - Parameter paths: JSON paths, such as `["$.firstName", "$.lastName"]`.
    public func jsonExtract(atPaths paths: some Collection<some SQLExpressible>) -> SQLExpression {
        Database.jsonExtract(self, atPaths: paths)
    }

    /// The `->` SQL operator: the JSON representation of the value at a path.
    ///
    /// - Parameter path: A JSON path, an object field label, or an array index.
    public func jsonRepresentation(atPath path: some SQLExpressible) -> SQLExpression {
        infix("->", self, path)
    }
}

extension SQLExpression {
    /// SQL functions whose result SQLite knows to be JSON, so that JSON-building functions
    /// need not wrap them in `JSON(...)`.
    private static let functionsReturningJSON: Set<String> = [
        "JSON", "JSON_ARRAY", "JSON_GROUP_ARRAY", "JSON_GROUP_OBJECT", "JSON_INSERT",
        "JSON_OBJECT", "JSON_PATCH", "JSON_REMOVE", "JSON_REPLACE", "JSON_SET", "JSON_QUOTE",
    ]

    func withJSONInterpretation() -> SQLExpression {
        var expression = self
        expression.prefersJSONInterpretation = true
        return expression
    }

    /// Whether SQLite reads the expression as JSON in a JSON-building function.
    private static func isJSONValue(_ node: Node) -> Bool {
        switch node {
        case .value(let value): return value.isNull
        case .infix("->", _, _): return true
        case .collated(let operand, _): return isJSONValue(operand)
        case let .function(name, arguments):
            let name = name.uppercased()
            return functionsReturningJSON.contains(name) || (name == "JSON_EXTRACT" && arguments.count > 2)
        case let .filteredAggregate(name, _, _): return functionsReturningJSON.contains(name.uppercased())
        default: return false
        }
    }

    /// The expression as an argument of a JSON-building function: JSON values that SQLite
    /// would read as strings are wrapped in `JSON(...)`.
    var jsonBuilderNode: Node {
        guard prefersJSONInterpretation, !Self.isJSONValue(node) else { return node }
        return .function("JSON", [node])
    }
}

extension DatabaseValue {
    /// The value, read as a JSON value: `"[1, 2, 3]".databaseValue.asJSON`.
    public var asJSON: AnySQLJSONExpressible {
        AnySQLJSONExpressible(sqlExpression: sqlExpression)
    }
}

extension AnySQLJSONExpressible: SQLSelectable, SQLOrderingTerm {}

extension SQLOrderingTerm where Self: SQLJSONExpressible {
    /// The expression, in ascending order.
    public var sqlOrdering: SQLOrdering { SQLOrdering(implicitlyAscending: sqlExpression) }
}
