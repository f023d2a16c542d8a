// The JSON functions of SQLite (https://www.sqlite.org/json1.html). Arguments that are
// JSON values (`JSONColumn`, `asJSON`) are wrapped in `JSON(...)` where SQLite builds JSON,
// so that they are embedded as JSON rather than as strings.

private func jsonFunction(_ name: String, _ arguments: [SQLExpression.Node]) -> SQLExpression {
    SQLExpression(.function(name, arguments))
}

private func keyValueNodes(
    _ elements: some Collection<(key: String, value: any SQLExpressible)>
) -> [SQLExpression.Node] {
    elements.flatMap { [$0.key.sqlExpression.node, $0.value.sqlExpression.jsonBuilderNode] }
}

extension Database {
    /// The `JSON` SQL function: a minified JSON string.
    ///
    /// - Parameter value: A JSON string.
    public static func json(_ value: some SQLExpressible) -> SQLExpression {
        jsonFunction("JSON", [value.sqlExpression.node])
    }

    /// The `JSON_ARRAY` SQL function.
    ///
    /// - Parameter values: The array elements.
    public static func jsonArray(_ values: some Collection<some SQLExpressible>) -> SQLExpression {
        jsonFunction("JSON_ARRAY", values.map(\.sqlExpression.jsonBuilderNode))
    }

    /// The `JSON_ARRAY` SQL function, for elements of several types.
    ///
    /// - Parameter values: The array elements.
    public static func jsonArray(_ values: some Collection<any SQLExpressible>) -> SQLExpression {
        jsonFunction("JSON_ARRAY", values.map(\.sqlExpression.jsonBuilderNode))
    }

    /// The `JSON_ARRAY_LENGTH` SQL function.
    ///
    /// - Parameter value: A JSON array.
    public static func jsonArrayLength(_ value: some SQLExpressible) -> SQLExpression {
        jsonFunction("JSON_ARRAY_LENGTH", [value.sqlExpression.node])
    }

    /// The `JSON_ARRAY_LENGTH` SQL function, for the array at a path.
    ///
    /// - Parameters:
    ///   - value: A JSON value.
    ///   - path: A JSON path.
    public static func jsonArrayLength(
        _ value: some SQLExpressible,
        atPath path: some SQLExpressible
    ) -> SQLExpression {
        jsonFunction("JSON_ARRAY_LENGTH", [value.sqlExpression.node, path.sqlExpression.node])
    }

    /// The `JSON_EXTRACT` SQL function, at one path.
    ///
    /// - Parameters:
    ///   - value: A JSON value.
    ///   - path: A JSON path.
    public static func jsonExtract(_ value: some SQLExpressible, atPath path: some SQLExpressible) -> SQLExpression {
        jsonFunction("JSON_EXTRACT", [value.sqlExpression.node, path.sqlExpression.node])
    }

    /// The `JSON_EXTRACT` SQL function, at several paths: a JSON array of the values.
    ///
    /// - Parameters:
    ///   - value: A JSON value.
    ///   - paths: JSON paths.
    public static func jsonExtract(
        _ value: some SQLExpressible,
        atPaths paths: some Collection<some SQLExpressible>
    ) -> SQLExpression {
        jsonFunction("JSON_EXTRACT", [value.sqlExpression.node] + paths.map(\.sqlExpression.node))
    }

    /// The `JSON_INSERT` SQL function: inserts values at paths that do not exist yet.
    ///
    /// - Parameters:
    ///   - value: A JSON value.
    ///   - assignments: JSON paths and the values to insert there.
    public static func jsonInsert(
        _ value: some SQLExpressible,
        _ assignments: some Collection<(key: String, value: any SQLExpressible)>
    ) -> SQLExpression {
        jsonFunction("JSON_INSERT", [value.sqlExpression.node] + keyValueNodes(assignments))
    }

    /// The `JSON_REPLACE` SQL function: replaces values at paths that exist.
    ///
    /// - Parameters:
    ///   - value: A JSON value.
    ///   - assignments: JSON paths and their new values.
    public static func jsonReplace(
        _ value: some SQLExpressible,
        _ assignments: some Collection<(key: String, value: any SQLExpressible)>
    ) -> SQLExpression {
        jsonFunction("JSON_REPLACE", [value.sqlExpression.node] + keyValueNodes(assignments))
    }

    /// The `JSON_SET` SQL function: inserts or replaces values at paths.
    ///
    /// - Parameters:
    ///   - value: A JSON value.
    ///   - assignments: JSON paths and their new values.
    public static func jsonSet(
        _ value: some SQLExpressible,
        _ assignments: some Collection<(key: String, value: any SQLExpressible)>
    ) -> SQLExpression {
        jsonFunction("JSON_SET", [value.sqlExpression.node] + keyValueNodes(assignments))
    }

    /// The `JSON_OBJECT` SQL function.
    ///
    /// - Parameter elements: The object's labels and values.
    public static func jsonObject(
        _ elements: some Collection<(key: String, value: any SQLExpressible)>
    ) -> SQLExpression {
        jsonFunction("JSON_OBJECT", keyValueNodes(elements))
    }

    /// The `JSON_PATCH` SQL function (RFC 7396 MergePatch).
    ///
    /// - Parameters:
    ///   - value: A JSON value.
    ///   - patch: The patch to apply.
    public static func jsonPatch(_ value: some SQLExpressible, with patch: some SQLExpressible) -> SQLExpression {
        jsonFunction("JSON_PATCH", [value.sqlExpression.node, patch.sqlExpression.node])
    }

    /// The `JSON_REMOVE` SQL function, at one path.
    ///
    /// - Parameters:
    ///   - value: A JSON value.
    ///   - path: The JSON path to remove.
    public static func jsonRemove(_ value: some SQLExpressible, atPath path: some SQLExpressible) -> SQLExpression {
        jsonFunction("JSON_REMOVE", [value.sqlExpression.node, path.sqlExpression.node])
    }

    /// The `JSON_REMOVE` SQL function, at several paths.
    ///
    /// - Parameters:
    ///   - value: A JSON value.
    ///   - paths: The JSON paths to remove.
    public static func jsonRemove(
        _ value: some SQLExpressible,
        atPaths paths: some Collection<some SQLExpressible>
    ) -> SQLExpression {
        jsonFunction("JSON_REMOVE", [value.sqlExpression.node] + paths.map(\.sqlExpression.node))
    }

    /// The `JSON_TYPE` SQL function: `'object'`, `'array'`, `'text'`...
    ///
    /// - Parameter value: A JSON value.
    public static func jsonType(_ value: some SQLExpressible) -> SQLExpression {
        jsonFunction("JSON_TYPE", [value.sqlExpression.node])
    }

    /// The `JSON_TYPE` SQL function, for the value at a path.
    ///
    /// - Parameters:
    ///   - value: A JSON value.
    ///   - path: A JSON path.
    public static func jsonType(_ value: some SQLExpressible, atPath path: some SQLExpressible) -> SQLExpression {
        jsonFunction("JSON_TYPE", [value.sqlExpression.node, path.sqlExpression.node])
    }

    /// The `JSON_VALID` SQL function: 1 for well-formed JSON, 0 otherwise.
    ///
    /// - Parameter value: The value to test.
    public static func jsonIsValid(_ value: some SQLExpressible) -> SQLExpression {
        jsonFunction("JSON_VALID", [value.sqlExpression.node])
    }

    /// The `JSON_QUOTE` SQL function: the value as a JSON value (strings get quoted).
    ///
    /// - Parameter value: A value.
    public static func jsonQuote(_ value: some SQLExpressible) -> SQLExpression {
        jsonFunction("JSON_QUOTE", [value.sqlExpression.jsonBuilderNode])
    }

    /// The `JSON_GROUP_ARRAY` SQL aggregate function.
    ///
    /// - Parameters:
    ///   - value: The aggregated values.
    ///   - filter: When not nil, only rows where it is true are aggregated.
    public static func jsonGroupArray(
        _ value: some SQLExpressible,
        filter: (any SQLSpecificExpressible)? = nil
    ) -> SQLExpression {
        aggregate("JSON_GROUP_ARRAY", [value.sqlExpression.jsonBuilderNode], filter: filter)
    }

    /// The `JSON_GROUP_OBJECT` SQL aggregate function.
    ///
    /// - Parameters:
    ///   - key: The aggregated labels.
    ///   - value: The aggregated values.
    ///   - filter: When not nil, only rows where it is true are aggregated.
    public static func jsonGroupObject(
        key: some SQLExpressible,
        value: some SQLExpressible,
        filter: (any SQLSpecificExpressible)? = nil
    ) -> SQLExpression {
        aggregate("JSON_GROUP_OBJECT", [key.sqlExpression.node, value.sqlExpression.jsonBuilderNode], filter: filter)
    }

    private static func aggregate(
        _ name: String,
        _ arguments: [SQLExpression.Node],
        filter: (any SQLSpecificExpressible)?
    ) -> SQLExpression {
        guard let filter else { return jsonFunction(name, arguments) }
        return SQLExpression(.filteredAggregate(name, arguments, filter: filter.sqlExpression.node))
    }
}
